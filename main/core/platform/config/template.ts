/**
 * The file written on first start: every setting with its default and a comment saying what it
 * does. A test keeps it equal to the schema's defaults.
 */
export const CONFIG_TEMPLATE = `# Parley configuration. Only super admins may change it (Admin → Configuration, or this file:
# a valid edit applies while Parley runs). Every setting below shows its default.

[server]
# Serve the HTTP API on a loopback port next to the desktop app (served mode always does).
enabled = true
# Loopback only ("127.0.0.1", "localhost" or "::1"): API keys act as their owner, so the API
# never listens on a network.
host = "127.0.0.1"
port = 4317
# Browser origins allowed to call the API (CORS), e.g. ["http://localhost:5173"].
cors_origins = []
# Largest JSON request body, in megabytes.
body_limit_mb = 1

[storage]
# Served mode on PostgreSQL (a team server, several instances on one database): a postgres:// URL.
# Unset: SQLite in the data directory. --database-url and PARLEY_DATABASE_URL take precedence; prefer
# PARLEY_DATABASE_URL for a URL with a password, as this file is kept in the database's history.
# database_url = "postgres://parley:password@db.example.com:5432/parley"

[auth]
# Accept deprecated access tokens (at_…). Set to false to refuse them with 401.
allow_access_tokens = true

[auth.oidc]
# Sign-in through your identity provider (OpenID Connect, authorization code with PKCE), beside
# API keys. Off while issuer is unset. See docs/team-server.md.
# issuer = "https://login.example.com/realms/team"
# What the sign-in page calls it ("Sign in with …"); the issuer's host when unset.
# name = "Example SSO"
# client_id = "parley"
# Leave out for a public client (PKCE only). PARLEY_OIDC_CLIENT_SECRET overrides it, to keep the
# secret out of this file (which is kept in the database's history).
# client_secret = "…"
# Where the provider sends the browser back; by default <this server's origin>/api/auth/oidc/callback.
# redirect_url = "https://parley.example.com/api/auth/oidc/callback"
scopes = ["openid", "profile", "email", "groups"]
# The claim listing the user's groups.
groups_claim = "groups"
# Create a Parley user on their first sign-in; when false, only users Parley already has (same
# verified email, or signed in this way before) may sign in.
create_users = true
# Group → role ("super_admin", "admin" or "member"); the highest wins, "member" when none matches.
# Applied at every sign-in. Example: roles = { "parley-admins" = "admin" }
roles = {}
# Group → organization name (created when missing); the first listed group the user has wins, the
# owner's organization when none. Applied when the user is created. Example: organizations = { "research" = "Research" }
organizations = {}

[ui]
# Orientation of the home screen carousels: "horizontal" or "vertical".
carousel = "horizontal"
# The colour theme for everyone who has not picked their own in Settings → Appearance:
# "system" follows the operating system; or "light", "dark".
theme = "system"

[features]
# The built-in "Simple Chat" workflow.
simple_chat = false

[routing]
# Dynamic routing (the default chat mode) picks a model per request.
# What it favours among able models: "quality", "balanced" or "cost".
prefer = "balanced"
# How much observed latency counts against a model, from 0 (ignored) to 1.
latency_weight = 0.2
# Consecutive failures after which a model is skipped (its circuit breaker opens) ...
failure_threshold = 3
# ... for this many seconds, before one trial request is let through.
cooldown_seconds = 30
# Candidates one request may fail over to when a provider fails before its first token.
max_attempts = 3

[providers]
# Seconds a remote model (an OpenAI-compatible server, Anthropic) may take to send anything back
# before it is given up and the next candidate answers. A model asked for by name, or the last
# candidate, is not cut short: it has the client's own two minutes.
first_byte_timeout_s = 15

[uploads]
# Largest file accepted into a knowledge base, in megabytes.
max_file_mb = 100
# Types accepted, as detected from the content and the file name.
allowed_types = [
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "text/html",
  "text/markdown",
  "text/plain",
  "text/csv",
  "application/json",
]
# Each part of a multi-part upload, in megabytes; clients PUT one signed URL per part.
part_size_mb = 8
# How long signed upload URLs stay valid, in seconds.
url_ttl_seconds = 3600
# Parsing one file may take at most this long, in seconds.
parse_timeout_seconds = 120
# Memory the parser of one file may use, in megabytes. Files are parsed in a separate process that
# is stopped when it crosses this (the file fails as too_large), so a hostile file cannot exhaust
# the machine's memory.
parse_memory_mb = 512

[folders]
# Directories a dataset may follow a folder under (the folder itself or anything below it), as
# absolute paths; empty: any folder Parley can read. Only admins may follow folders in served mode.
allowed_roots = []

[retrieval]
# What embeds text for hybrid search (files are also embedded, and search fuses keyword and vector
# rankings). Empty or "auto": a local embedding model that is present, with no network — the one
# bundled with the desktop app, else an embedding GGUF in <data-dir>/models (e.g. downloaded from
# Settings → Models) — and keyword-only search while there is none. "none": keyword-only search.
# A model id (mdl_…): that registered OpenAI-compatible embeddings model or local GGUF embedding
# model. Choosing another model embeds the existing files again in the background.
embedding_model = ""

[chat]
# Tokens one answer may have. Every model request carries this as max_tokens (a smaller max_tokens
# in the request wins), and an answer longer than 16 bytes a token (from an upstream that ignores
# the limit) is stopped there: its text is kept and it ends as an error (answer_too_long).
max_answer_tokens = 8192
# Answers one user may have being written at once: chats (a continue or regenerate too), model
# comparisons (one each, whatever their models) and /v1 completions or messages. One more is refused
# with 429 rate_limited until one of them ends.
max_concurrent_answers = 8

[agents]
# Agentic answers plan, call tools over the attached datasets (search, read, list), then answer.
# Tool calls one answer may make before the agent must answer with what it has.
max_steps = 6
# Seconds one answer's tool calls may take before the agent must answer with what it has.
time_budget_seconds = 60

[mcp]
# MCP (Model Context Protocol) servers whose tools agentic answers may call, next to Parley's own.
# Calls to MCP tools one answer may make (they count towards [agents] max_steps too).
max_calls_per_answer = 8
# Bytes of MCP tool results one answer may show the model; a longer result is cut.
max_result_bytes_per_answer = 65536
# The servers: none by default. To declare some, replace the line \`servers = []\` below with one
# [[mcp.servers]] table per server, as in the examples. A program Parley starts (stdio) gets only
# the environment given here (plus PATH when env does not set it). Servers start when an agent
# first needs them, restart with back-off after a failure, and stop when removed from this file.
servers = []
#
# [[mcp.servers]]
# name = "files"                 # letters, digits, _ and -; tools are offered as mcp__files__<tool>
# command = "npx"                # or an absolute path
# args = ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]
# env = { }                      # e.g. { API_TOKEN = "…" }
# enabled = true
# tools = ["read_file", "search_files"]   # optional allow-list; all of the server's tools when absent
# timeout_seconds = 30           # one call (and the server's start) may take at most this long
#
# [[mcp.servers]]
# name = "tickets"
# url = "http://127.0.0.1:8931/mcp"        # Streamable HTTP
# headers = { Authorization = "Bearer …" }

[local_models]
# Local GGUF models run in-process through llama.cpp. Every .gguf under <data-dir>/models/ is
# found, and under these folders (nothing is copied). "@lm_studio", "@jan", "@gpt4all" and
# "@ollama" stand for those apps' model folders on this OS; "~" is your home folder.
search_paths = ["@lm_studio", "@jan", "@gpt4all", "@ollama"]
# Answers one loaded model writes at once; more wait their turn.
parallel = 2
# Chat models loaded at once. Loading another first unloads the least recently used one that is
# not writing an answer; when all are writing, the new answer waits for one to finish.
max_loaded = 1
# Unload a model nobody used for this many seconds (frees its memory); 0 keeps it loaded.
idle_unload_seconds = 300
# CPU threads per model; 0 picks for this machine (half the cores, 1 to 8).
threads = 0
# Context size in tokens of EACH parallel answer (each gets its own: memory for the context grows
# with context_size × parallel); 0 uses the model's own, at most 8192.
context_size = 0
# GPU offload: "auto" uses Metal, CUDA or Vulkan where found; false forces the CPU.
gpu = "auto"
# Offer running Ollama and LM Studio servers in Settings → Models (never added silently).
detect_servers = true
ollama_url = "http://127.0.0.1:11434"
lm_studio_url = "http://127.0.0.1:1234"
# The largest model file a download may bring, in GB: one stated larger is refused before it
# starts, and one whose server states no size is stopped (its bytes removed) when it passes this.
max_download_gb = 100
# Free disk space (GB) downloads always leave, checked before and while they run: the database,
# uploads and settings need room. A download that would leave less stops; its bytes are kept.
download_reserve_gb = 1
`;
