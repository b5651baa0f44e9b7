import { ServiceError } from '../../../../shared/errors.js';
import type { AuthedSlice } from '../../platform/context.js';
import type { InputOf } from '../../platform/operation-handlers.js';
import { visible } from '../datasets/access.js';

/**
 * `GET /passages/{chunk_id}`: a passage and its neighbours in its file (the same neighbours the
 * agents' read_passage reads). Someone else's organization's passage is not found, never confirmed.
 */
export function readPassage(ctx: AuthedSlice<'repos'>, input: InputOf<'passages.get'>) {
  const missing = () => new ServiceError('not_found', `No passage ${input.chunk_id}.`);
  const hit = ctx.repos.chunks.hit(input.chunk_id);
  if (!hit) throw missing();
  const dataset = ctx.repos.datasets.getByKb(hit.kb_id);
  if (!visible(ctx, dataset)) throw missing();
  const around = ctx.repos.chunks.around(hit.id, input.radius);
  return {
    chunk_id: hit.id,
    dataset_id: dataset.id,
    artifact_id: hit.artifact_id,
    artifact_key: hit.artifact_key,
    location: hit.location,
    text: hit.text,
    context: around.map((c) => ({ chunk_id: c.id, text: c.text, is_passage: c.id === hit.id })),
  };
}
