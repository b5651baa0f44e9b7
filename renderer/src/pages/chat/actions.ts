import { createContext, useContext } from 'react';
import type { Model } from './types.js';

/** What the messages of the open thread can do; provided by the chat page, read by each message. */
export interface ChatActions {
  /** An answer is being written: every other action waits (specified behaviour). */
  busy: boolean;
  /** The models an answer may be regenerated with. */
  models: Model[];
  /** Answers the question of `answerId` again; `model` null lets the router choose. */
  regenerate(answerId: string, model: string | null): void;
  /** Goes on with an answer that stopped early, from its kept text. */
  continueAnswer(answerId: string): void;
  /** Sends a new version of one of the user's messages; the old one and its answer stay. */
  edit(messageId: string, text: string): void;
  /** Shows another version at a fork (branches.ts): that message and the conversation under it. */
  switchVersion(fork: string, messageId: string): void;
}

const noop = () => undefined;
export const ChatActionsContext = createContext<ChatActions>({ busy: true, models: [], regenerate: noop, continueAnswer: noop, edit: noop, switchVersion: noop });

export const useChatActions = () => useContext(ChatActionsContext);
