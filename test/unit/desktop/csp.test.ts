import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../../shared/config.js';
import { createAppProtocolHandler } from '../../../main/desktop/app-protocol.js';
import { localApiOrigins } from '../../../main/desktop/app.js';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy } from '../../../main/desktop/window.js';

const withServer = (server: Partial<Config['server']>) => ({ config: () => ({ ...DEFAULT_CONFIG, server: { ...DEFAULT_CONFIG.server, ...server } }) });

describe('the desktop page may reach the local API, and nothing else', () => {
  it('allows the configured API origin for uploads, only when the server is on with a known port', () => {
    expect(localApiOrigins(withServer({}))).toEqual(['http://127.0.0.1:4317']);
    expect(localApiOrigins(withServer({ host: '::1', port: 9000 }))).toEqual(['http://[::1]:9000']);
    expect(localApiOrigins(withServer({ enabled: false }))).toEqual([]);
    expect(localApiOrigins(withServer({ port: 0 }))).toEqual([]);
  });

  it('adds those origins to connect-src only', () => {
    const policy = contentSecurityPolicy(['http://127.0.0.1:4317']);
    expect(policy).toContain("connect-src 'self' http://127.0.0.1:4317;");
    expect(policy).toContain("script-src 'self';");
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self';");
  });

  it('the app:// handler sends the policy it was given', async () => {
    const root = mkdtempSync(join(tmpdir(), 'parley-renderer-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    const policy = contentSecurityPolicy(['http://127.0.0.1:4317']);
    const res = await createAppProtocolHandler(root, policy)(new Request('app://parley/index.html'));
    expect(res.headers.get('content-security-policy')).toBe(policy);
  });
});
