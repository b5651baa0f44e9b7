import * as admin from './admin.js';
import * as agents from './agents.js';
import type { Operation } from './define.js';
import * as chat from './chat.js';
import * as config from './config.js';
import * as comparisons from './comparisons.js';
import * as datasets from './datasets.js';
import * as files from './files.js';
import * as folders from './folders.js';
import * as identity from './identity.js';
import * as models from './models.js';
import * as modelDownloads from './model-downloads.js';
import * as localModels from './local-models.js';
import * as reports from './reports.js';
import * as search from './search.js';
import * as suggestions from './suggestions.js';
import * as threads from './threads.js';
import * as metrics from './metrics.js';
import * as workflows from './workflows.js';
import * as service from './service.js';
import * as mcp from './mcp.js';
import * as messageImages from './message-images.js';
import * as passageSource from './passage-source.js';

/**
 * Every operation of the service, each named once (its `name`): both transports, the typed client
 * and the handler maps derive from this list; `operations` looks them up by name.
 */
const all = [
  service.health,
  service.version,
  service.ui,
  identity.me,
  identity.createApiKey,
  identity.listApiKeys,
  identity.deleteApiKey,
  identity.redeemSignInCode,
  admin.listUsers,
  admin.createUser,
  admin.updateUser,
  admin.createUserToken,
  admin.endTrial,
  admin.listUserApiKeys,
  admin.createUserApiKey,
  admin.deleteUserApiKey,
  config.getConfig,
  config.putConfig,
  config.patchConfig,
  config.configHistory,
  config.rollbackConfig,
  config.features,
  config.server,
  threads.createThread,
  threads.listThreads,
  threads.getThread,
  threads.updateThread,
  threads.deleteThread,
  threads.threadFiles,
  threads.listMessages,
  threads.threadSuggestions,
  chat.sendChat,
  chat.cancelChat,
  chat.attachChat,
  chat.regenerateChat,
  chat.editChat,
  chat.continueChat,
  messageImages.messageImage,
  messageImages.messageImageData,
  agents.messageThoughts,
  models.listModels,
  models.createModel,
  models.probeModels,
  models.updateModel,
  models.deleteModel,
  models.testModel,
  modelDownloads.modelCatalog,
  modelDownloads.createDownload,
  modelDownloads.listDownloads,
  modelDownloads.getDownload,
  modelDownloads.cancelDownload,
  localModels.discoveredModels,
  localModels.loadModel,
  localModels.unloadModel,
  models.listOverrides,
  models.putOverride,
  models.deleteOverride,
  datasets.createDataset,
  datasets.listDatasets,
  datasets.getDataset,
  datasets.updateDataset,
  datasets.deleteDataset,
  datasets.listArtifacts,
  datasets.getArtifact,
  datasets.artifactLink,
  datasets.deleteArtifact,
  datasets.retryArtifact,
  datasets.cancelArtifact,
  files.uploadArtifacts,
  files.artifactContent,
  folders.createFolder,
  folders.listFolders,
  folders.getFolder,
  folders.updateFolder,
  folders.deleteFolder,
  datasets.createUpload,
  datasets.getUpload,
  datasets.completeUpload,
  datasets.uploadLimits,
  files.uploadPart,
  reports.createReport,
  reports.getReport,
  search.search,
  search.searchEmbedding,
  suggestions.suggestedPrompts,
  suggestions.suggestedDatasets,
  comparisons.createComparison,
  comparisons.listComparisons,
  comparisons.leaderboard,
  comparisons.getComparison,
  comparisons.attachComparison,
  comparisons.cancelComparison,
  comparisons.voteComparison,
  metrics.metrics,
  workflows.createWorkflow,
  workflows.listWorkflows,
  workflows.updateWorkflow,
  workflows.deleteWorkflow,
  mcp.listMcpServers,
  mcp.connectMcpServer,
  mcp.readPassage,
  passageSource.readPassageSource,
] as const;

type ByName<T extends readonly Operation[]> = { [O in T[number] as O['name']]: O };

function byName<const T extends readonly Operation[]>(ops: T): ByName<T> {
  const map: Record<string, Operation> = {};
  for (const op of ops) {
    if (Object.hasOwn(map, op.name)) throw new Error(`Two operations are named ${op.name}.`);
    map[op.name] = op;
  }
  return map as ByName<T>;
}

/** Every operation of the service, by name. Both transports and the typed client derive from this. */
export const operations = byName(all);

export type Operations = typeof operations;
export type OperationName = keyof Operations;

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.hasOwn(operations, name);
}

export * from './define.js';
export { AdminUser, TrialStatus } from './admin.js';
export { AgentThought } from './agents.js';
export { ApiKey, Organization, User } from './identity.js';
export { Model, ModelOverride } from './models.js';
export { CatalogModel, ModelDownload } from './model-downloads.js';
export { Thread } from './threads.js';
export { ConfigProblem, ConfigState, ConfigVersion } from './config.js';
export { Artifact, Dataset, Upload } from './datasets.js';
export { FileDownload, type ByteStream, type IncomingFile } from './files.js';
export { Folder, FolderStatus } from './folders.js';
export { Comparison, ComparisonEvent, ComparisonResponse, ComparisonSummary, LeaderboardEntry } from './comparisons.js';
export { Metrics } from './metrics.js';
export { Workflow } from './workflows.js';
export { McpServer, McpTool } from './mcp.js';
