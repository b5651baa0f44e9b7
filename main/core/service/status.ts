import { API_RELEASES } from '../../../shared/api-version.js';
import type { Context } from '../context.js';

export const health = () => ({ status: 'ok' as const });

export const version = (ctx: Context) => ({ version: ctx.appVersion, api_releases: [...API_RELEASES] });
