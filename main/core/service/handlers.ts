import type { z } from 'zod';
import type { Operations, Streaming } from '../../../shared/operations/index.js';
import * as adminConfig from './admin/config.js';
import * as adminUsers from './admin/users.js';
import * as agents from '../conversation/agents/handlers.js';
import * as apiKeys from '../platform/auth/api-keys.js';
import { me } from '../platform/auth/me.js';
import { redeemSignInCode } from '../platform/auth/sign-in-code.js';
import type { AuthedContext, Context } from '../platform/context.js';
import * as chat from '../conversation/chat/handlers.js';
import * as comparisons from '../conversation/comparisons/handlers.js';
import * as datasets from '../knowledge/datasets/handlers.js';
import * as uploads from '../knowledge/uploads/handlers.js';
import * as folders from '../knowledge/folders/handlers.js';
import { artifactLink } from '../knowledge/datasets/download-link.js';
import * as reports from '../conversation/reports/handlers.js';
import * as retrieval from '../knowledge/retrieval/handlers.js';
import * as suggestions from '../conversation/suggestions/handlers.js';
import * as models from '../models/catalog/handlers.js';
import * as overrides from '../models/catalog/overrides.js';
import { probeModels } from '../models/catalog/probe.js';
import * as modelDownloads from '../models/local/downloads/handlers.js';
import * as localModels from '../models/local/handlers.js';
import * as status from './status.js';
import * as threads from '../conversation/threads/handlers.js';
import { metrics } from './metrics/metrics.js';
import * as workflows from '../conversation/workflows/handlers.js';
import type { Sequenced } from '../../../shared/events.js';
import * as mcp from '../conversation/mcp/handlers.js';
import { readPassage } from '../knowledge/retrieval/passage.js';
import { readPassageSource } from '../knowledge/retrieval/passage-source.js';

type CtxFor<K extends keyof Operations> = Operations[K]['access'] extends 'public' ? Context : AuthedContext;

/** One plain function per operation; the compiler checks each against its schemas. */
export type Handlers = {
  [K in keyof Operations]: (
    ctx: CtxFor<K>,
    input: z.output<Operations[K]['input']>,
  ) => z.input<Operations[K]['output']> | Promise<z.input<Operations[K]['output']>>;
};

export const handlers: Handlers = {
  'service.health': status.health,
  'service.version': status.version,
  'service.ui': status.ui,
  'identity.me': me,
  'apiKeys.create': apiKeys.createApiKey,
  'apiKeys.list': apiKeys.listApiKeys,
  'apiKeys.delete': apiKeys.deleteApiKey,
  'signInCodes.redeem': redeemSignInCode,
  'admin.users.list': adminUsers.listUsers,
  'admin.users.create': adminUsers.createUser,
  'admin.users.update': adminUsers.updateUser,
  'admin.userTokens.create': adminUsers.createUserToken,
  'admin.users.apiKeys.list': apiKeys.listUserApiKeys,
  'admin.users.apiKeys.create': apiKeys.createUserApiKey,
  'admin.users.apiKeys.delete': apiKeys.deleteUserApiKey,
  'admin.config.get': adminConfig.getConfig,
  'admin.config.put': adminConfig.putConfig,
  'admin.config.patch': adminConfig.patchConfig,
  'admin.config.history': adminConfig.configHistory,
  'admin.config.rollback': adminConfig.rollbackConfig,
  'features.get': status.features,
  'service.server': status.server,
  'threads.create': threads.createThread,
  'threads.list': threads.listThreads,
  'threads.get': threads.getThread,
  'threads.update': threads.updateThread,
  'threads.delete': threads.deleteThread,
  'threads.messages': threads.listMessages,
  'threads.suggestions': threads.threadSuggestions,
  'chat.send': chat.sendChat,
  'chat.cancel': chat.cancelChat,
  'chat.regenerate': chat.regenerateChat,
  'chat.edit': chat.editChat,
  'chat.continue': chat.continueChat,
  'chat.stream': () => {
    throw new Error('chat.stream only streams');
  },
  'messages.thoughts': agents.messageThoughts,
  'models.list': models.listModels,
  'models.create': models.createModel,
  'models.probe': probeModels,
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
  'overrides.list': overrides.listOverrides,
  'overrides.put': overrides.putOverride,
  'overrides.delete': overrides.deleteOverride,
  'datasets.create': datasets.createDataset,
  'datasets.list': datasets.listDatasets,
  'datasets.get': datasets.getDataset,
  'datasets.update': datasets.updateDataset,
  'datasets.delete': datasets.deleteDataset,
  'artifacts.list': datasets.listArtifacts,
  'artifacts.get': datasets.getArtifact,
  'artifacts.link': artifactLink,
  'artifacts.delete': datasets.deleteArtifact,
  'artifacts.retry': datasets.retryArtifact,
  'folders.create': folders.createFolder,
  'folders.list': folders.listFolders,
  'folders.get': folders.getFolder,
  'folders.update': folders.updateFolder,
  'folders.delete': folders.deleteFolder,
  'uploads.create': uploads.createUpload,
  'uploads.get': uploads.getUpload,
  'uploads.complete': uploads.completeUpload,
  'reports.create': reports.createReport,
  'reports.get': reports.getReport,
  'search.query': retrieval.searchDatasets,
  'search.embedding': retrieval.embeddingStatus,
  'suggestions.prompts': suggestions.suggestedPrompts,
  'suggestions.datasets': suggestions.suggestedDatasets,
  'comparisons.create': comparisons.createComparison,
  'comparisons.list': comparisons.listComparisons,
  'comparisons.leaderboard': comparisons.leaderboard,
  'comparisons.get': comparisons.getComparison,
  'comparisons.stream': () => {
    throw new Error('comparisons.stream only streams');
  },
  'comparisons.cancel': comparisons.cancelComparison,
  'comparisons.vote': comparisons.voteComparison,
  'admin.metrics': metrics,
  'workflows.create': workflows.createWorkflow,
  'workflows.list': workflows.listWorkflows,
  'workflows.update': workflows.updateWorkflow,
  'workflows.delete': workflows.deleteWorkflow,
  'mcp.servers.list': mcp.listMcpServers,
  'mcp.servers.connect': mcp.connectMcpServer,
  'passages.get': readPassage,
  'passages.source': readPassageSource,
};

type StreamingName = { [K in keyof Operations]: Operations[K]['streaming'] extends Streaming ? K : never }[keyof Operations];

/** The streaming side of operations that stream: their events, in order. */
export type StreamHandlers = {
  [K in StreamingName]: (
    ctx: AuthedContext,
    input: z.output<Operations[K]['input']>,
  ) => AsyncIterable<Sequenced<z.output<NonNullable<Operations[K]['streaming']>['event']> & { event: string }>>;
};

export const streamHandlers: StreamHandlers = {
  'chat.send': chat.streamChat,
  'chat.stream': chat.attachChat,
  'chat.regenerate': chat.streamRegenerate,
  'chat.edit': chat.streamEdit,
  'chat.continue': chat.streamContinue,
  'comparisons.create': comparisons.streamComparison,
  'comparisons.stream': comparisons.attachComparison,
};
