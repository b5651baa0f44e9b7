import { z } from 'zod';
import { FeaturesConfig } from '../config.js';
import { Empty, Timestamp, list } from './common.js';
import { defineOperation } from './define.js';

/** A problem of a configuration text, where it is written. */
export const ConfigProblem = z.object({
  path: z.string(),
  message: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});

const ConfigSource = z.enum(['default', 'file', 'admin', 'rollback']);

const Author = z.object({ id: z.string(), name: z.string() }).nullable();

/** The configuration in force and what is not in force yet. */
export const ConfigState = z.object({
  toml: z.string(),
  version: z.number().int(),
  updated_at: Timestamp,
  updated_by: Author,
  source: ConfigSource,
  /**
   * Dotted keys (`server.port`) whose saved value differs from the one the running app uses and
   * that take effect at the next start. Everything else applies at once.
   */
  restart_required: z.array(z.string()),
  /**
   * Problems of `parley.toml` on disk when it was edited by hand and cannot be used; the version
   * above stays in force until the file is fixed or a version is saved from here.
   */
  file_problems: z.array(ConfigProblem),
  /**
   * Why the local HTTP server is not listening although the configuration asks for it (the port is
   * taken, say), or null.
   */
  server_problem: z.string().nullable(),
});

/** Text stored as UTF-8 must be well-formed Unicode, or the file would not read back as saved. */
const WellFormed = (max: number) => z.string().max(max).refine((s) => s.isWellFormed(), 'must be well-formed Unicode');

const BaseVersion = z.number().int().min(0).describe('The version the edit started from; a newer one answers 409.');

export const getConfig = defineOperation({
  name: 'admin.config.get',
  summary: 'The TOML configuration in force, with its version.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'GET', path: '/admin/config', status: 200 },
  input: Empty,
  output: ConfigState,
});

export const putConfig = defineOperation({
  name: 'admin.config.put',
  summary:
    'Replaces the configuration. It is validated (422 with `errors: [{ line, column, path, message }]`), refused when `base_version` is stale (409), then saved atomically and applied.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'PUT', path: '/admin/config', status: 200 },
  input: z.object({ toml: WellFormed(256 * 1024), base_version: BaseVersion }),
  output: ConfigState,
});

/** A value a single key may take. */
const ConfigValue = z.union([WellFormed(4096), z.number(), z.boolean(), z.array(WellFormed(4096)).max(256)]);

export const patchConfig = defineOperation({
  name: 'admin.config.patch',
  summary:
    'Sets individual keys (`{"server.port": 4318}`), keeping the rest of the file and its comments as written; validated and versioned like a replace.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'PATCH', path: '/admin/config', status: 200 },
  input: z.object({
    values: z
      .record(z.string().regex(/^[a-z_]+\.[a-z_]+$/, 'must be a dotted key like server.port'), ConfigValue)
      .refine((values) => Object.keys(values).length > 0, 'must set at least one key')
      .refine((values) => Object.keys(values).length <= 64, 'sets at most 64 keys at once'),
    base_version: BaseVersion,
  }),
  output: ConfigState,
});

export const ConfigVersion = z.object({
  version: z.number().int(),
  created_at: Timestamp,
  created_by: Author,
  source: ConfigSource,
  toml: z.string(),
});

export const configHistory = defineOperation({
  name: 'admin.config.history',
  summary: 'Every configuration that was in force, newest first.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'GET', path: '/admin/config/history', status: 200 },
  input: Empty,
  output: list(ConfigVersion),
});

export const rollbackConfig = defineOperation({
  name: 'admin.config.rollback',
  summary: 'Puts an earlier version back in force, as a new version.',
  tag: 'Administration',
  access: 'super_admin',
  http: { method: 'POST', path: '/admin/config/rollback', status: 200 },
  input: z.object({ version: z.number().int().min(1) }),
  output: ConfigState,
});

export const features = defineOperation({
  name: 'features.get',
  summary: 'The effective feature flags.',
  tag: 'Service',
  access: 'user',
  http: { method: 'GET', path: '/features', status: 200 },
  input: Empty,
  // The flags are the `[features]` table of the configuration schema: a flag added there is served here.
  output: FeaturesConfig,
});

export const server = defineOperation({
  name: 'service.server',
  summary: 'The local HTTP server: whether it listens, where, and what the configuration asks of it.',
  tag: 'Service',
  access: 'user',
  http: { method: 'GET', path: '/server', status: 200 },
  input: Empty,
  output: z.object({
    /** Where it listens now (`http://127.0.0.1:4317`), or null when it is off. */
    url: z.string().nullable(),
    /** `[server] enabled` and `port` as saved. */
    enabled: z.boolean(),
    port: z.number().int(),
    /** Served mode always serves HTTP and its `--port` wins for the run; the desktop applies changes at once. */
    mode: z.enum(['desktop', 'served']),
    /** Why it is not listening although `enabled` asks for it (the port is taken, say), or null. */
    problem: z.string().nullable(),
  }),
});
