import { z } from 'zod';
import { API_RELEASES } from '../api-version.js';
import { Empty } from './common.js';
import { defineOperation } from './define.js';

export const health = defineOperation({
  name: 'service.health',
  summary: 'Liveness check; needs no token. Says which database this instance runs on and which instance answered.',
  tag: 'Service',
  access: 'public',
  http: { method: 'GET', path: '/health', status: 200 },
  input: Empty,
  output: z.object({
    status: z.literal('ok'),
    storage: z.enum(['sqlite', 'postgres']).describe('SQLite in the data directory, or a PostgreSQL server (the team server).'),
    instance: z.string().describe('This process among the instances sharing one database; new at each start (PARLEY_INSTANCE_ID sets it).'),
  }),
});

export const version = defineOperation({
  name: 'service.version',
  summary: 'The app version and the dated API releases it serves.',
  tag: 'Service',
  access: 'public',
  http: { method: 'GET', path: '/version', status: 200 },
  input: Empty,
  output: z.object({ version: z.string(), api_releases: z.array(z.enum(API_RELEASES)) }),
});

export const ui = defineOperation({
  name: 'service.ui',
  summary: "How the app looks by default (`[ui]` of the configuration); needs no token, so the sign-in page follows it too.",
  tag: 'Service',
  access: 'public',
  http: { method: 'GET', path: '/ui', status: 200 },
  input: Empty,
  output: z.object({
    theme: z.enum(['system', 'light', 'dark']).describe('`[ui] theme`: the colour theme for whoever has not chosen their own in Settings.'),
    oidc: z
      .object({ name: z.string(), start_url: z.string() })
      .nullable()
      .describe('`[auth.oidc]`: the identity provider the sign-in page offers ("Sign in with <name>", opening `start_url`), or null when it is off.'),
  }),
});
