import type { BranchMessage } from '../../../db/repositories/messages.js';
import { chatModels, resolveModel, resolveOverride, type ResolveCtx } from '../../models/catalog/catalog.js';
import { CHARS_PER_TOKEN } from '../../platform/tokens.js';

/**
 * History no answer is shown more of, whatever context a model claims (the built-in extractive
 * model claims a million tokens): about 1 MB of text, so one chat never reads more than that.
 */
export const MAX_HISTORY_TOKENS = 262_144;

/** The characters of history worth reading for models of at most `contextTokens` tokens. */
export function historyBudgetChars(contextTokens: number): number {
  return Math.min(Math.max(contextTokens, 1), MAX_HISTORY_TOKENS) * CHARS_PER_TOKEN;
}

/**
 * The branch an answer continues, as far back as any model that may answer could be shown: the
 * named one (`target`, a model or `ovr_` override), else the largest context of the caller's chat
 * models. Read newest first and stopped there, so a thread of any length costs one bounded read;
 * the conversation is then cut precisely to the chosen model (answering/turns.ts).
 */
export function readBranch(ctx: ResolveCtx, threadId: string, lastId: string | null, target: string | undefined): BranchMessage[] {
  if (lastId === null) return [];
  const contextTokens = target
    ? (target.startsWith('ovr_') ? resolveOverride(ctx, target) : resolveModel(ctx, target)).model.capabilities.context_tokens
    : Math.max(0, ...chatModels(ctx).map((m) => m.capabilities.context_tokens));
  return ctx.repos.messages.branch(threadId, lastId, historyBudgetChars(contextTokens));
}
