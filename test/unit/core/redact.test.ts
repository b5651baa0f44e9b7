import { describe, expect, it } from 'vitest';
import { endpointForAdmin, endpointForMember, redactSecrets, sameOrigin } from '../../../main/core/platform/secrets/redact.js';

describe('redactSecrets', () => {
  it.each([
    ['Authorization: Bearer sk-abcdefghijklmnop', 'sk-abcdefghijklmnop'],
    ['Incorrect API key provided: sk-proj-AbC123456789xyz', 'sk-proj-AbC123456789xyz'],
    ['anthropic said invalid x-api-key sk-ant-api03-ZZZZZZZZZZZZ', 'sk-ant-api03-ZZZZZZZZZZZZ'],
    ['{"api_key": "plainvalue123"}', 'plainvalue123'],
    ['password=hunter2hunter2', 'hunter2hunter2'],
    ['see https://bob:s3cr3tpass@host.example/v1', 's3cr3tpass'],
    ['GET https://api.example.com/v1?key=AIzaSyA-abcdefghijklmnopqrstu&alt=json', 'AIzaSyA-abcdefghijklmnopqrstu'],
    ['token pk_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345 echoed', 'pk_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345'],
    ['Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA=='],
  ])('removes the credential from %j', (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
  });

  it('removes exactly the secrets it is told were sent, whatever their shape', () => {
    expect(redactSecrets('upstream: unknown key "weird.custom/KEY-42" given', ['weird.custom/KEY-42'])).toBe('upstream: unknown key "[redacted]" given');
  });

  it('leaves ordinary error text alone', () => {
    const text = 'openai_compatible answered 404: The model `gpt-x` does not exist (see https://platform.example.com/docs?page=2).';
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('endpoints as shown', () => {
  const url = 'https://u:p@llm.example.com:8443/v1?api_key=abc&v=1';
  it('members see the origin, admins the URL without credentials', () => {
    expect(endpointForMember(url)).toBe('https://llm.example.com:8443');
    expect(endpointForAdmin(url)).toBe('https://[redacted]@llm.example.com:8443/v1?api_key=[redacted]&v=1');
    expect(endpointForMember(null)).toBeNull();
  });

  it('origins compare scheme, host and port', () => {
    expect(sameOrigin('http://127.0.0.1:1/v1', 'http://127.0.0.1:1/other')).toBe(true);
    expect(sameOrigin('http://127.0.0.1:1/v1', 'http://127.0.0.1:2/v1')).toBe(false);
    expect(sameOrigin('https://a.example/v1', 'http://a.example/v1')).toBe(false);
    expect(sameOrigin('https://a.example/v1', null)).toBe(false);
  });
});
