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

/**
 * Where served mode keeps its data. Read before the rest of the file, by main/db/storage.ts (the
 * rest is stored in the database it names); here so the file that names it is still valid.
 */
export const StorageConfig = z.strictObject({
  /** `postgres://…`: run on PostgreSQL (the team server); unset: SQLite in the data directory. */
  database_url: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres://').optional(),
});

/** The roles a provider's group may grant (trial users come with a user token instead). */
export const OIDC_ROLES = ['super_admin', 'admin', 'member'] as const;

/** OpenID Connect sign-in through the team's identity provider, beside API keys; off while `issuer` is unset. */
export const OidcConfig = z.strictObject({
  /** The provider's issuer URL (its discovery document is `<issuer>/.well-known/openid-configuration`). */
  issuer: z.string().url().optional(),
  /** What the sign-in page calls the provider ("Sign in with <name>"); the issuer's host when unset. */
  name: z.string().min(1).max(80).optional(),
  client_id: z.string().min(1).optional(),
  /** Absent for a public client (PKCE only). */
  client_secret: z.string().min(1).optional(),
  /** Where the provider sends the browser back; `<served origin>/api/auth/oidc/callback` when unset. */
  redirect_url: z.string().url().optional(),
  scopes: z.array(z.string().min(1)).default(['openid', 'profile', 'email', 'groups']),
  /** The ID token (or userinfo) claim listing the user's groups. */
  groups_claim: z.string().min(1).default('groups'),
  /** Group → Parley role; the highest granted role wins, `member` when none is mapped. */
  roles: z.record(z.string(), z.enum(OIDC_ROLES)).default({}),
  /** Group → organization name (created when missing); the first mapped group in this list wins, the owner's organization when none. */
  organizations: z.record(z.string(), z.string().min(1).max(200)).default({}),
  /** Whether a user the provider knows but Parley does not is created on first sign-in. */
  create_users: z.boolean().default(true),
});

export const AuthConfig = z.strictObject({
  /** Deprecated `at_…` access tokens; turn off to refuse them with 401. */
  allow_access_tokens: z.boolean().default(true),
  oidc: OidcConfig.prefault({}),
});

export const UiConfig = z.strictObject({
  carousel: z.enum(['horizontal', 'vertical']).default('horizontal'),
  theme: z.enum(['system', 'light', 'dark']).default('system'),
});

export const FeaturesConfig = z.strictObject({
  simple_chat: z.boolean().default(false),
});

/** Knobs of the dynamic router (the default chat mode). */
export const RoutingConfig = z.strictObject({
  /** What the router favours among models able to answer: answer quality, low cost, or a balance. */
  prefer: z.enum(['quality', 'balanced', 'cost']).default('balanced'),
  /** How much observed latency counts against a model, 0 (ignored) to 1. */
  latency_weight: z.number().min(0).max(1).default(0.2),
  /** Consecutive failures that open a model's circuit breaker (the router skips it). */
  failure_threshold: z.number().int().min(1).max(100).default(3),
  /** Seconds an open circuit waits before one trial request is let through. */
  cooldown_seconds: z.number().int().min(1).max(3600).default(30),
  /** How many candidates a request may fail over to when a provider fails before its first token. */
  max_attempts: z.number().int().min(1).max(10).default(3),
});

/** Calls to remote models (OpenAI-compatible servers, Anthropic). */
export const ProvidersConfig = z.strictObject({
  /**
   * Seconds a remote model may take to send its first byte before the next candidate answers
   * instead (dynamic routing); the last candidate, or a model asked for by name, waits longer.
   */
  first_byte_timeout_s: z.number().min(0.1).max(600).default(15),
});

/** What may be uploaded into a knowledge base, and how. */
export const UploadsConfig = z.strictObject({
  /** Largest file, in megabytes. */
  max_file_mb: z.number().min(0.001).max(10_240).default(100),
  /** Types accepted after detection from content and name. */
  allowed_types: z
    .array(z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'must be a MIME type like text/plain'))
    .default(['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/html', 'text/markdown', 'text/plain', 'text/csv', 'application/json']),
  /** Size of each part of a multi-part upload, in megabytes. */
  part_size_mb: z.number().min(0.25).max(512).default(8),
  /** How long signed upload URLs stay valid, in seconds. */
  url_ttl_seconds: z.number().int().min(60).max(7 * 24 * 3600).default(3600),
  /** Parsing one file may take at most this long. */
  parse_timeout_seconds: z.number().int().min(1).max(3600).default(120),
  /**
   * Memory one file's parser may use, in megabytes (its process is killed over it and the file
   * fails as too_large): bounds what a small hostile file (a zip bomb) can make the app allocate.
   */
  parse_memory_mb: z.number().int().min(128).max(16_384).default(512),
});

/** Search over datasets. */
export const RetrievalConfig = z.strictObject({
  /**
   * What embeds text for hybrid search. Empty (the default, what older templates wrote) or `auto`:
   * a local embedding model that is present — the one bundled with the desktop app, else an
   * embedding GGUF in `<data-dir>/models` — and keyword-only while there is none. `none`:
   * keyword-only. A model id (`mdl_…`): that registered OpenAI-compatible embeddings model (e.g.
   * text-embedding-3-small) or local GGUF embedding model. With a model, chunks are embedded and
   * search fuses keyword and vector rankings.
   */
  embedding_model: z
    .union([z.enum(['', 'auto', 'none']), z.string().regex(/^mdl_[A-Za-z0-9]+$/, 'must be "auto", "none", empty or a model id (mdl_…)')])
    .default(''),
});

/** Chat answers, whoever asks for them: the ceiling every answer stops at. */
export const ChatConfig = z.strictObject({
  /**
   * Tokens one answer may have: every model request carries this as `max_tokens` (a caller's smaller
   * value wins), and an answer whose text passes 16 bytes a token (an upstream that ignores the
   * limit) is stopped there, kept, and ends as an error (`answer_too_long`).
   */
  max_answer_tokens: z.number().int().min(16).max(1_000_000).default(8192),
  /**
   * Answers one user may have being written at once (chat, continue, regenerate, a comparison, a
   * `/v1` completion or message): one more is refused with 429 `rate_limited` before it starts.
   */
  max_concurrent_answers: z.number().int().min(1).max(10_000).default(8),
});

/** Agentic answers (`agentic: true` on `POST /chat`): how far one agent may go before it must answer. */
export const AgentsConfig = z.strictObject({
  /** Tool calls one answer may make before the agent answers with what it has. */
  max_steps: z.number().int().min(1).max(50).default(6),
  /** Seconds one answer's tool calls may take before the agent answers with what it has. */
  time_budget_seconds: z.number().int().min(1).max(3600).default(60),
});

/** A server name: it becomes part of tool names (`mcp__<name>__<tool>`), so letters, digits, `_` and `-` only. */
const McpName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, 'must be 1–32 letters, digits, "_" or "-" (it becomes part of tool names)');

/**
 * One MCP server whose tools agentic answers may use: a program Parley starts (stdio: `command`,
 * `args`, `env`) or a Streamable HTTP endpoint (`url`, `headers`). Only super admins can declare
 * one (the TOML is theirs), so nothing else can make Parley run a program.
 */
export const McpServerConfig = z
  .strictObject({
    name: McpName,
    /** stdio: the program to start (found on PATH, or an absolute path). */
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    /** The program's whole environment (plus PATH when this does not set it): nothing else of Parley's leaks in. */
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string()).default({}),
    /** Streamable HTTP: the server's endpoint. */
    url: z.url({ protocol: /^https?$/ }).optional(),
    /** Sent with every HTTP request (e.g. Authorization). */
    headers: z.record(z.string().regex(/^[A-Za-z0-9-]+$/, 'must be a header name'), z.string()).default({}),
    enabled: z.boolean().default(true),
    /** Offer only these of the server's tools (their names as the server gives them); all when absent. */
    tools: z.array(z.string().min(1)).optional(),
    /** One tool call (and the server's start) may take at most this long. */
    timeout_seconds: z.number().int().min(1).max(600).default(30),
  })
  .superRefine((server, ctx) => {
    if ((server.command === undefined) === (server.url === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'give either command (a program to start) or url (a Streamable HTTP endpoint), not both' });
    }
    if (server.url !== undefined && (server.args.length > 0 || Object.keys(server.env).length > 0)) {
      ctx.addIssue({ code: 'custom', path: ['args'], message: 'args and env apply to a command, not to a url' });
    }
    if (server.command !== undefined && Object.keys(server.headers).length > 0) {
      ctx.addIssue({ code: 'custom', path: ['headers'], message: 'headers apply to a url, not to a command' });
    }
  });

/** MCP (Model Context Protocol): servers whose tools agents may call, and what one answer may spend on them. */
export const McpConfig = z
  .strictObject({
    /** Calls to MCP tools one answer may make (they count towards [agents] max_steps too). */
    max_calls_per_answer: z.number().int().min(0).max(50).default(8),
    /** Bytes of MCP tool results one answer may put in front of the model; a longer result is cut. */
    max_result_bytes_per_answer: z.number().int().min(1024).max(1_048_576).default(65_536),
    servers: z.array(McpServerConfig).default([]),
  })
  .superRefine((mcp, ctx) => {
    const seen = new Set<string>();
    mcp.servers.forEach((server, i) => {
      const key = server.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['servers', i, 'name'], message: `another server is already called ${JSON.stringify(server.name)}` });
      seen.add(key);
    });
  });

export type McpServerConfig = z.output<typeof McpServerConfig>;
/** Local GGUF models run in-process through llama.cpp (node-llama-cpp), found where users keep them. */
export const LocalModelsConfig = z.strictObject({
  /**
   * Folders searched (recursively) for `.gguf` files, besides `<data-dir>/models/`. `@lm_studio`,
   * `@jan`, `@gpt4all` and `@ollama` stand for those apps' model folders on this OS (Ollama's
   * manifests are resolved to the blobs holding the GGUF); `~` is the home folder. Nothing is copied.
   */
  search_paths: z
    .array(
      z
        .string()
        .min(1)
        .max(1000)
        .refine((p) => !p.startsWith('@') || ['@lm_studio', '@jan', '@gpt4all', '@ollama'].includes(p), 'must be a folder, or one of @lm_studio, @jan, @gpt4all, @ollama'),
    )
    .max(50)
    .default(['@lm_studio', '@jan', '@gpt4all', '@ollama']),
  /** Answers one loaded model writes at once (one context sequence each); more wait their turn. */
  parallel: z.number().int().min(1).max(16).default(2),
  /**
   * Chat models loaded at once; loading another first unloads the least recently used one that is
   * not writing an answer (when all are, the answer waits for one to finish). Embedding models do not count.
   */
  max_loaded: z.number().int().min(1).max(16).default(1),
  /** A loaded model nobody used for this long is unloaded (its memory freed); 0 keeps it loaded. */
  idle_unload_seconds: z.number().int().min(0).max(7 * 24 * 3600).default(300),
  /** CPU threads per model; 0 picks for this machine (half the cores, at least 1, at most 8). */
  threads: z.number().int().min(0).max(256).default(0),
  /**
   * Context size in tokens (prompt + answer) of EACH parallel answer: every sequence gets this many
   * (the KV cache holds context_size × parallel tokens); 0: the model's own, capped at 8192.
   */
  context_size: z.number().int().min(0).max(1_048_576).default(0),
  /** GPU offload: `auto` uses Metal, CUDA or Vulkan where found; false forces the CPU. */
  gpu: z.union([z.literal('auto'), z.literal(false)]).default('auto'),
  /** Offer running Ollama and LM Studio servers (`GET /models/discovered`); they are never added silently. */
  detect_servers: z.boolean().default(true),
  /** Where a running Ollama server is looked for (its OpenAI-compatible API is `<url>/v1`). */
  ollama_url: z.string().url().max(500).default('http://127.0.0.1:11434'),
  /** Where a running LM Studio server is looked for. */
  lm_studio_url: z.string().url().max(500).default('http://127.0.0.1:1234'),
  /**
   * The largest model file a download may bring, in GB (1024³ bytes): a file stated larger is
   * refused before a byte is written, and one that states no size stops (its bytes removed) when it passes this.
   */
  max_download_gb: z.number().positive().max(100_000).default(100),
  /**
   * Free disk space, in GB, a download never eats into (checked before and while it runs): the
   * database, uploads and settings need room. A download that would leave less stops, its bytes kept.
   */
  download_reserve_gb: z.number().min(0).max(100_000).default(1),
});

/** Watched folders (issue 30). */
export const FoldersConfig = z.strictObject({
  /**
   * Absolute directories a folder may be followed under (itself or below); empty: anywhere the
   * process can read. Admins set it in served mode, where followed folders are on the server's disk.
   */
  allowed_roots: z
    .array(z.string().min(1).max(4096).refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path'))
    .max(100)
    .default([]),
});

export const ConfigSchema = z.strictObject({
  server: ServerConfig.prefault({}),
  storage: StorageConfig.prefault({}),
  auth: AuthConfig.prefault({}),
  ui: UiConfig.prefault({}),
  features: FeaturesConfig.prefault({}),
  routing: RoutingConfig.prefault({}),
  providers: ProvidersConfig.prefault({}),
  uploads: UploadsConfig.prefault({}),
  retrieval: RetrievalConfig.prefault({}),
  chat: ChatConfig.prefault({}),
  agents: AgentsConfig.prefault({}),
  mcp: McpConfig.prefault({}),
  local_models: LocalModelsConfig.prefault({}),
  folders: FoldersConfig.prefault({}),
});

export type Config = z.output<typeof ConfigSchema>;
export const DEFAULT_CONFIG: Config = ConfigSchema.parse({});
