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
});

/** Search over datasets. */
export const RetrievalConfig = z.strictObject({
  /**
   * A model (`mdl_…`) that embeds text: a registered OpenAI-compatible embeddings model (e.g.
   * text-embedding-3-small) or a local GGUF embedding model (works offline). Set, chunks are
   * embedded and search fuses keyword and vector rankings; empty, search is keyword-only.
   */
  embedding_model: z.union([z.literal(''), z.string().regex(/^mdl_[A-Za-z0-9]+$/, 'must be a model id (mdl_…) or empty')]).default(''),
});

/** Agentic answers (`agentic: true` on `POST /chat`): how far one agent may go before it must answer. */
export const AgentsConfig = z.strictObject({
  /** Tool calls one answer may make before the agent answers with what it has. */
  max_steps: z.number().int().min(1).max(50).default(6),
  /** Seconds one answer's tool calls may take before the agent answers with what it has. */
  time_budget_seconds: z.number().int().min(1).max(3600).default(60),
});

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
  /** A loaded model nobody used for this long is unloaded (its memory freed); 0 keeps it loaded. */
  idle_unload_seconds: z.number().int().min(0).max(7 * 24 * 3600).default(300),
  /** CPU threads per model; 0 picks for this machine (half the cores, at least 1, at most 8). */
  threads: z.number().int().min(0).max(256).default(0),
  /** Context size in tokens (prompt + answer), shared by the parallel answers; 0: the model's own, capped at 8192. */
  context_size: z.number().int().min(0).max(1_048_576).default(0),
  /** GPU offload: `auto` uses Metal, CUDA or Vulkan where found; false forces the CPU. */
  gpu: z.union([z.literal('auto'), z.literal(false)]).default('auto'),
  /** Offer running Ollama and LM Studio servers (`GET /models/discovered`); they are never added silently. */
  detect_servers: z.boolean().default(true),
  /** Where a running Ollama server is looked for (its OpenAI-compatible API is `<url>/v1`). */
  ollama_url: z.string().url().max(500).default('http://127.0.0.1:11434'),
  /** Where a running LM Studio server is looked for. */
  lm_studio_url: z.string().url().max(500).default('http://127.0.0.1:1234'),
});

export const ConfigSchema = z.strictObject({
  server: ServerConfig.prefault({}),
  auth: AuthConfig.prefault({}),
  ui: UiConfig.prefault({}),
  features: FeaturesConfig.prefault({}),
  routing: RoutingConfig.prefault({}),
  uploads: UploadsConfig.prefault({}),
  retrieval: RetrievalConfig.prefault({}),
  agents: AgentsConfig.prefault({}),
  local_models: LocalModelsConfig.prefault({}),
});

export type Config = z.output<typeof ConfigSchema>;
export const DEFAULT_CONFIG: Config = ConfigSchema.parse({});
