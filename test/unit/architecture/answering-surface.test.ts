/**
 * Issue 32: a question is answered in one place. The conversation wing answers through
 * main/core/answering/index.ts only (agents and comparisons never through chat's files), and its
 * domains depend one way, in the order written beside the wing rules in eslint.config.js.
 */
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../support/import-graph.js';

/** The conversation wing's domains, top to bottom: each may import only the levels below its own. */
const LEVELS = [['chat', 'comparisons', 'reports', 'suggestions'], ['agents'], ['threads'], ['workflows'], ['mcp']];
const CONVERSATION = 'main/core/conversation/';
const ANSWERING = 'main/core/answering/';

const levelOf = (domain: string) => LEVELS.findIndex((level) => level.includes(domain));
const domainOf = (file: string) => file.slice(CONVERSATION.length).split('/')[0] ?? '';

function edges(): Array<[string, string]> {
  return [...importGraph('main/core')].flatMap(([from, targets]) => targets.map((to): [string, string] => [from, to]));
}

describe('the answering module', () => {
  it('is reached from the conversation wing through its index only', () => {
    const behind = edges().filter(([from, to]) => from.startsWith(CONVERSATION) && to.startsWith(ANSWERING) && to !== `${ANSWERING}index.ts`);
    expect(behind.map(([from, to]) => `${from} -> ${to}`)).toEqual([]);
  });

  it('imports nothing from the conversation wing', () => {
    const up = edges().filter(([from, to]) => from.startsWith(ANSWERING) && to.startsWith(CONVERSATION));
    expect(up.map(([from, to]) => `${from} -> ${to}`)).toEqual([]);
  });

  it("keeps the conversation wing's domains in one order, none importing its own level or one above", () => {
    const inWing = edges().filter(([from, to]) => from.startsWith(CONVERSATION) && to.startsWith(CONVERSATION) && domainOf(from) !== domainOf(to));
    // A new domain must be given its place in the order first.
    const unplaced = [...new Set(inWing.flatMap(([from, to]) => [domainOf(from), domainOf(to)]))].filter((d) => levelOf(d) < 0);
    expect(unplaced).toEqual([]);
    const against = inWing.filter(([from, to]) => levelOf(domainOf(to)) <= levelOf(domainOf(from)));
    expect(against.map(([from, to]) => `${from} -> ${to}`)).toEqual([]);
  });
});
