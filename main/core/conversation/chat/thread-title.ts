import { errorText } from '../../../../shared/errors.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { ResolvedModel } from '../../models/catalog/catalog.js';
import type { Logger } from '../../platform/logger.js';
import { estimateTokens } from '../../platform/tokens.js';
import { answerWithFailover, type FailoverRuntime, type RunHandle } from '../../answering/index.js';
import { capitalise, clip, keyPhrase } from './key-phrase.js';

/** A title call that has not answered by then is given up: the thread keeps its title. */
export const TITLE_TIMEOUT_MS = 15_000;
/** Enough for a few words in any language; a model that runs on is cut here. */
const TITLE_MAX_TOKENS = 24;
/** What of the question and of the answer the model is shown to name the thread. */
const SHOWN_CHARS = 1_200;

export const TITLE_INSTRUCTION =
  'Write a title for the conversation below: a few words (at most six), in the language of the question. ' +
  'Reply with the title only, without quotes and without punctuation at the end.';

/** The thread's first question and its answer, by the model that wrote it. */
export interface TitleJob {
  threadId: string;
  /** The answer just completed. */
  messageId: string;
  question: string;
  answer: string;
  /** The model that answered: it writes the title, unless it is the built-in extractive model. */
  model: ResolvedModel;
  userId: string;
  /** True where no model may be called for it (a trial's quota counts model calls): the key phrase is the title. */
  offline: boolean;
}

export interface TitleDeps {
  repos: Repositories;
  runtime: FailoverRuntime & { log: Logger; lifecycle: { readonly signal: AbortSignal } };
  now: () => Date;
}

/**
 * A model's reply as a title: its first line, without a "Title:" label, markdown emphasis, quotes,
 * citation markers or trailing punctuation, at most a title's length, its first letter capitalised.
 * Null when nothing is left.
 */
export function cleanTitle(reply: string): string | null {
  const line = reply.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  let title = line
    .replace(/^(?:#+\s*)?(?:title|titel|titre|标题|標題|タイトル)\s*[:：]\s*/iu, '')
    .replace(/^#+\s*/u, '')
    // Citation markers of an answer-like reply ("… [1]") are no part of a name.
    .replace(/\s*\[\d+\]/gu, '')
    // Inline Markdown (bold, italics, code) anywhere: a clipped "**const**" must not leave "**const".
    .replace(/\*\*|__|`|(?<![\p{L}\p{N}])[*_]|[*_](?![\p{L}\p{N}])/gu, '')
    .replace(/\s+/gu, ' ');
  for (let before = ''; before !== title; ) {
    before = title;
    title = title
      .replace(/^["'“”‘’«»„「」『』`*_]+|["'“”‘’«»„「」『』`*_]+$/gu, '')
      .replace(/[\s.!?。！？:：;；,，、…]+$/u, '')
      .trim();
  }
  // Capitalised like the titles written without a model, so the list reads alike.
  // A marker the model cut off ("… [1") is dropped after clipping too.
  const clipped = title ? clip(title).replace(/\s*\[\d*$/u, '') : '';
  return clipped ? capitalise(clipped) || null : null;
}

/** The model's title for the thread; null when it answered nothing usable. Throws when the call fails. */
async function modelTitle(deps: TitleDeps, job: TitleJob): Promise<string | null> {
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, AbortSignal.timeout(TITLE_TIMEOUT_MS), deps.runtime.lifecycle.signal]);
  const conversation = `Question: ${job.question.slice(0, SHOWN_CHARS)}\n\nAnswer: ${job.answer.slice(0, SHOWN_CHARS)}`;
  const turns = [
    { role: 'system' as const, content: TITLE_INSTRUCTION },
    { role: 'user' as const, content: conversation },
  ];
  let reply = '';
  let usage: { input_tokens: number; output_tokens: number } | null = null;
  try {
    const events = answerWithFailover(deps.runtime, [job.model], { turns, passages: [], hasDatasets: false, signal, failOver: false, sampling: { max_tokens: TITLE_MAX_TOKENS, temperature: 0.2 } });
    for await (const event of events) {
      if (event.type === 'delta') reply += event.text;
      else if (event.type === 'usage') usage = { input_tokens: event.input_tokens, output_tokens: event.output_tokens };
      // A model that ignores the token limit is not read to its end.
      if (reply.length > 1_000) stop.abort();
    }
  } finally {
    // Counted like every other call, whatever came of it, once something was said.
    if (reply || usage) {
      const spent = usage ?? { input_tokens: estimateTokens(`${TITLE_INSTRUCTION}\n${conversation}`), output_tokens: estimateTokens(reply) };
      deps.repos.usage.record({ user_id: job.userId, model_id: job.model.model.id, source: 'chat', message_id: job.messageId, ...spent, created_at: deps.now().toISOString() });
    }
  }
  return cleanTitle(reply);
}

/**
 * Names a thread after its first answer, once: by the model that answered, or without a model
 * (the built-in extractive model answered, or none may be called) from the question's key phrase.
 * The user's own title is never written over, nor is a title written twice (threads.claimTitle).
 * A failed or slow call keeps the title the thread has, said in the log only. Tells the stream the
 * new title (`thread.updated`) after the answer's own end.
 */
export async function titleThread(deps: TitleDeps, job: TitleJob, run: RunHandle): Promise<void> {
  if (!deps.repos.threads.claimTitle(job.threadId, job.messageId)) return;
  let title: string | null;
  if (job.offline || job.model.model.provider === 'extractive') title = keyPhrase(job.question);
  else {
    try {
      title = (await modelTitle(deps, job)) ?? keyPhrase(job.question);
    } catch (error) {
      deps.runtime.log.warn(`Thread ${job.threadId} keeps its title: the title call to ${job.model.model.name} failed (${errorText(error)}).`);
      return;
    }
  }
  if (!title) return;
  if (deps.repos.threads.writeTitle(job.threadId, title, deps.now().toISOString())) {
    run.emit({ event: 'thread.updated', data: { thread_id: job.threadId, title } });
  }
}
