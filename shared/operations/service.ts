import { z } from 'zod';
import { API_RELEASES } from '../api-version.js';
import { Empty } from './common.js';
import { defineOperation } from './define.js';

export const health = defineOperation({
  name: 'service.health',
  summary: 'Liveness check; needs no token.',
  tag: 'Service',
  access: 'public',
  http: { method: 'GET', path: '/health', status: 200 },
  input: Empty,
  output: z.object({ status: z.literal('ok') }),
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
