import * as admin from './admin.js';
import * as agents from './agents.js';
import type { Operation } from './define.js';
import * as chat from './chat.js';
import * as config from './config.js';
import * as comparisons from './comparisons.js';
import * as datasets from './datasets.js';
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
import * as passageSource from './passage-source.js';

/** Every operation of the service, by name. Both transports and the typed client derive from this. */
export const operations = {
  'service.health': service.health,
  'service.version': service.version,
  'service.ui': service.ui,
  'identity.me': identity.me,
  'apiKeys.create': identity.createApiKey,
  'apiKeys.list': identity.listApiKeys,
  'apiKeys.delete': identity.deleteApiKey,
  'signInCodes.redeem': identity.redeemSignInCode,
  'admin.users.list': admin.listUsers,
  'admin.users.create': admin.createUser,
  'admin.users.update': admin.updateUser,
  'admin.userTokens.create': admin.createUserToken,
  'admin.users.apiKeys.list': admin.listUserApiKeys,
  'admin.users.apiKeys.create': admin.createUserApiKey,
  'admin.users.apiKeys.delete': admin.deleteUserApiKey,
  'admin.config.get': config.getConfig,
  'admin.config.put': config.putConfig,
  'admin.config.patch': config.patchConfig,
  'admin.config.history': config.configHistory,
  'admin.config.rollback': config.rollbackConfig,
  'features.get': config.features,
  'service.server': config.server,
  'threads.create': threads.createThread,
  'threads.list': threads.listThreads,
  'threads.get': threads.getThread,
  'threads.update': threads.updateThread,
  'threads.delete': threads.deleteThread,
  'threads.messages': threads.listMessages,
  'threads.suggestions': threads.threadSuggestions,
  'chat.send': chat.sendChat,
  'chat.cancel': chat.cancelChat,
  'chat.stream': chat.attachChat,
  'chat.regenerate': chat.regenerateChat,
  'chat.edit': chat.editChat,
  'chat.continue': chat.continueChat,
  'messages.thoughts': agents.messageThoughts,
  'models.list': models.listModels,
  'models.create': models.createModel,
  'models.probe': models.probeModels,
  'models.update': models.updateModel,
  'models.delete': models.deleteModel,
  'models.test': models.testModel,
  'models.catalog': modelDownloads.modelCatalog,
  'models.downloads.create': modelDownloads.createDownload,
  'models.downloads.list': modelDownloads.listDownloads,
  'models.downloads.get': modelDownloads.getDownload,
  'models.downloads.cancel': modelDownloads.cancelDownload,
  'models.discovered': localModels.discoveredModels,
  'models.load': localModels.loadModel,
  'models.unload': localModels.unloadModel,
  'overrides.list': models.listOverrides,
  'overrides.put': models.putOverride,
  'overrides.delete': models.deleteOverride,
  'datasets.create': datasets.createDataset,
  'datasets.list': datasets.listDatasets,
  'datasets.get': datasets.getDataset,
  'datasets.update': datasets.updateDataset,
  'datasets.delete': datasets.deleteDataset,
  'artifacts.list': datasets.listArtifacts,
  'artifacts.get': datasets.getArtifact,
  'artifacts.link': datasets.artifactLink,
  'artifacts.delete': datasets.deleteArtifact,
  'artifacts.retry': datasets.retryArtifact,
  'folders.create': folders.createFolder,
  'folders.list': folders.listFolders,
  'folders.get': folders.getFolder,
  'folders.update': folders.updateFolder,
  'folders.delete': folders.deleteFolder,
  'uploads.create': datasets.createUpload,
  'uploads.get': datasets.getUpload,
  'uploads.complete': datasets.completeUpload,
  'reports.create': reports.createReport,
  'reports.get': reports.getReport,
  'search.query': search.search,
  'search.embedding': search.searchEmbedding,
  'suggestions.prompts': suggestions.suggestedPrompts,
  'suggestions.datasets': suggestions.suggestedDatasets,
  'comparisons.create': comparisons.createComparison,
  'comparisons.list': comparisons.listComparisons,
  'comparisons.leaderboard': comparisons.leaderboard,
  'comparisons.get': comparisons.getComparison,
  'comparisons.stream': comparisons.attachComparison,
  'comparisons.cancel': comparisons.cancelComparison,
  'comparisons.vote': comparisons.voteComparison,
  'admin.metrics': metrics.metrics,
  'workflows.create': workflows.createWorkflow,
  'workflows.list': workflows.listWorkflows,
  'workflows.update': workflows.updateWorkflow,
  'workflows.delete': workflows.deleteWorkflow,
  'mcp.servers.list': mcp.listMcpServers,
  'mcp.servers.connect': mcp.connectMcpServer,
  'passages.get': mcp.readPassage,
  'passages.source': passageSource.readPassageSource,
} as const satisfies Record<string, Operation>;

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
export { Folder, FolderStatus } from './folders.js';
export { Comparison, ComparisonEvent, ComparisonResponse, ComparisonSummary, LeaderboardEntry } from './comparisons.js';
export { Metrics } from './metrics.js';
export { Workflow } from './workflows.js';
export { McpServer, McpTool } from './mcp.js';
