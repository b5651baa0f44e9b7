import { joinHandlers, type Handlers, type StreamHandlers } from '../platform/operation-handlers.js';
import { agentHandlers } from '../conversation/agents/handlers.js';
import { chatHandlers, chatStreams } from '../conversation/chat/handlers.js';
import { messageImageHandlers } from '../conversation/chat/image-handlers.js';
import { comparisonHandlers, comparisonStreams } from '../conversation/comparisons/handlers.js';
import { mcpHandlers } from '../conversation/mcp/handlers.js';
import { reportHandlers } from '../conversation/reports/handlers.js';
import { suggestionHandlers } from '../conversation/suggestions/handlers.js';
import { threadHandlers } from '../conversation/threads/handlers.js';
import { workflowHandlers } from '../conversation/workflows/handlers.js';
import { datasetHandlers } from '../knowledge/datasets/handlers.js';
import { folderHandlers } from '../knowledge/folders/handlers.js';
import { passageHandlers } from '../knowledge/passages/handlers.js';
import { searchHandlers } from '../knowledge/retrieval/handlers.js';
import { uploadHandlers } from '../knowledge/uploads/file-operations.js';
import { modelHandlers } from '../models/catalog/handlers.js';
import { localModelHandlers } from '../models/catalog/local-handlers.js';
import { modelDownloadHandlers } from '../models/local/downloads/handlers.js';
import { authHandlers } from '../platform/auth/handlers.js';
import { adminHandlers } from './admin/handlers.js';
import { statusHandlers } from './status.js';

export type { Handlers, StreamHandlers } from '../platform/operation-handlers.js';

/**
 * Every operation's handler: each domain keeps its map beside its code, and this joins them. The
 * compiler refuses a name handled twice (`joinHandlers`) and an operation no map handles (`Handlers`).
 */
export const handlers: Handlers = joinHandlers(
  statusHandlers,
  authHandlers,
  adminHandlers,
  threadHandlers,
  chatHandlers,
  messageImageHandlers,
  agentHandlers,
  comparisonHandlers,
  reportHandlers,
  suggestionHandlers,
  workflowHandlers,
  mcpHandlers,
  datasetHandlers,
  uploadHandlers,
  folderHandlers,
  searchHandlers,
  passageHandlers,
  modelHandlers,
  localModelHandlers,
  modelDownloadHandlers,
);

/** The streaming side of operations that stream, joined as the handlers are. */
export const streamHandlers: StreamHandlers = joinHandlers(chatStreams, comparisonStreams);
