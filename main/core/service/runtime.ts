import type { Runtime } from '../platform/context.js';
import type { StreamHub } from '../answering/hub.js';
import type { AnswerSlots } from '../answering/slots.js';
import type { FolderWatchers } from '../knowledge/folders/watchers.js';
import type { IngestQueue } from '../knowledge/ingest/queue.js';
import type { ModelDownloads } from '../models/local/downloads/runner.js';
import type { McpClients } from '../conversation/mcp/clients.js';
import type { Lifecycle } from './lifecycle.js';

/**
 * The runtime as the composition root (main/boot.ts) assembles it: the concrete services behind
 * the ports every handler sees, with what only start-up and shutdown call (resume, stop, drain,
 * idle). The core's wings see `Runtime`; boot and the tests that drive it see this.
 */
export interface AssembledRuntime extends Runtime {
  hub: StreamHub;
  answerSlots: AnswerSlots;
  lifecycle: Lifecycle;
  ingest: IngestQueue;
  folders?: FolderWatchers | undefined;
  downloads: ModelDownloads;
  mcp?: McpClients | undefined;
}
