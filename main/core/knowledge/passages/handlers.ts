import type { HandlersFor } from '../../platform/operation-handlers.js';
import { readPassage } from './passage.js';
import { readPassageSource } from './passage-source.js';

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const passageHandlers: HandlersFor<'passages'> = {
  'passages.get': readPassage,
  'passages.source': readPassageSource,
};
