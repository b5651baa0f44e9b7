import { z } from 'zod';

/**
 * The TOML configuration file (`parley.toml` in the data directory). Every key has a default, so
 * an empty file is a valid configuration; unknown keys are refused so that a typo is reported
 * instead of silently ignored. Only super admins may change it.
 */
const LoopbackHost = z.enum(['127.0.0.1', 'localhost', '::1']);

export const ServerConfig = z.strictObject({
  /** Serve the HTTP API next to IPC in the desktop app. Served mode always serves it. */
  enabled: z.boolean().default(true),
  /** Loopback only: the API acts as whoever owns a key, so it never listens on a network. */
  host: LoopbackHost.default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(4317),
  /** Browser origins allowed to call the API (CORS). None by default. */
  cors_origins: z.array(z.string().url()).default([]),
  /** Largest JSON request body, in megabytes. */
  body_limit_mb: z.number().min(0.01).max(100).default(1),
});

export const AuthConfig = z.strictObject({
  /** Deprecated `at_…` access tokens; turn off to refuse them with 401. */
  allow_access_tokens: z.boolean().default(true),
});

export const UiConfig = z.strictObject({
  carousel: z.enum(['horizontal', 'vertical']).default('horizontal'),
  theme: z.enum(['system', 'light', 'dark']).default('system'),
});

export const FeaturesConfig = z.strictObject({
  simple_chat: z.boolean().default(false),
});

export const ConfigSchema = z.strictObject({
  server: ServerConfig.prefault({}),
  auth: AuthConfig.prefault({}),
  ui: UiConfig.prefault({}),
  features: FeaturesConfig.prefault({}),
});

export type Config = z.output<typeof ConfigSchema>;
export const DEFAULT_CONFIG: Config = ConfigSchema.parse({});
