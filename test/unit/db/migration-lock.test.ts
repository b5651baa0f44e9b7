import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../main/db/migrations/index.js';

/**
 * SHA-256 of every shipped migration's SQL. Databases in the field have run these exact statements:
 * editing one would leave them different from a new database built from the edited text. A change
 * goes into a new migration instead. A new migration is added here when it ships.
 */
const SHIPPED: Record<number, string> = {
  10: 'dd7de10db3d23ad13c882d843026bff2b3fdca39a6e10c51e744de8325884127',
  20: '1e58c37955bc4136e3ee2d83e0573fdf2c5116515d16dc3651c8e68a11c736d1',
  30: 'bae45e305e6cfba4d155135f3c433de9e3e7ff77b3f4e3dbf0856a4b0200bd1f',
  40: '5c09f8966b26b2b8fa0c11166692d8d735276305b886b91962cdda587676a9c0',
  50: '5866491c76a75b145e5de68df510a830d56aded1ceeb13a8f716fb0af72ddb61',
  60: '15e86799e157ced1d35d9d5e93d75091cc7b7218bd09cfa2c7c9bb35a3a0ca17',
  70: '5a938d503408ecc1bfad96a5a73885e1c35b444263b86a7ff5f737701c5490f0',
  80: 'cd2a5da2ea8c49c49cfdbe4b51c7880577957420200c0609d75e3c3d08545434',
  90: '8d7172297ec63e4cad8c6a3022d96f25dfb4bebb1efffd44feee37d6715682cb',
  110: '6c107b56ada53adbae2a0421c3361078b8b793fd7a5f8aad2b57cd22469527a8',
  120: 'd9653d5d0bc4e17462736bde4843ca9de667cdc3319cbcb0d3b9a2587c3681a9',
  150: '69e286c331591e0009c19fb37976cbcb64efc9a6e43f7b67e5f9a7f30d0f83c5',
  160: 'a7896b7762106f7e926efa08544f7b5a3635c222aac368702ed871a08455f61a',
  170: 'acc1023841067ced50bc4dbaf3118d1b1bf385f2a3fe5ae776b84b07549b754f',
  180: '4c7ce663f611893a88511328313a0bfd8152102e600b4d00ee451b23738906c2',
  190: '622accb36ef340154ee9c6a6c89ff22f26ea568af25742fbb8ffe3baafa4b443',
  200: '7610b6a1e0f1e1fb77ed95b6678008e53f4de39308faca3914f1982ed011840c',
  210: '39321dd95f0b6934bcb583e46cd3fbc8cbf422a93a662a32637470a4e410461f',
  220: '8f7e80e01ff59a421da6ae9dc610e5743d937e9bbc3144214d09dd894fdcec3b',
  230: '33a8c93f72721703cadfcbb1e1fe9cbeee1c471ccfd363ed42d077ce9f061e6c',
  240: '111f5fed576d929db3453acf62d5896c8a396866faa05a3fd8cebce25bd16706',
  250: '9b9196d561977fbe3f2a7df87c1d8df7167b5f09d64f425e6390be7c9c0e701f',
  260: 'ac3576169db39b9376c9d51c7ce2fb30f1f8ca5d2504f7cba99f510cb3ca2ba7',
  270: '9f583c3b9f02f80b420ca47b60712011ad0f47156aa7b200c3bb85d701ed236b',
  280: 'de49957a1481fe563b69e486f75864018f7745ca2a6fdf95c730b5733711ef0d',
  290: '624cc30b1a1e8a1edf701b39726ca05944c57852bb5a3524eb9e315640aa2236',
  300: '415bae2350168932aef029e0108013f5d067fc6bd9dccbd44318c3d6ed10175e',
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('shipped migrations', () => {
  it('are never edited: each one hashes to what it shipped as', () => {
    const edited = MIGRATIONS.filter((m) => SHIPPED[m.version] !== undefined && SHIPPED[m.version] !== sha256(m.sql)).map((m) => `${m.version} (${m.name})`);
    expect(edited, 'these shipped migrations were edited: put the change in a new migration').toEqual([]);
  });

  it('are never removed or renumbered', () => {
    const versions = new Set(MIGRATIONS.map((m) => m.version));
    expect(Object.keys(SHIPPED).map(Number).filter((v) => !versions.has(v))).toEqual([]);
  });

  it('are all in the lock (a new migration is added when it ships)', () => {
    const unlocked = MIGRATIONS.filter((m) => SHIPPED[m.version] === undefined).map((m) => `${m.version}: '${sha256(m.sql)}'`);
    expect(unlocked, 'add these lines to SHIPPED in this file').toEqual([]);
  });
});
