import { isAbsolute } from 'node:path';
import { ServiceError } from '../../../../shared/errors.js';
import type { ContextSlice } from '../../platform/context.js';

/** `POST /models {provider: "llama_cpp", model_path}`: checks the file is a GGUF Parley can read before registering it. */
export async function checkModelPath(ctx: ContextSlice<'repos', 'local'>, path: string) {
  if (!isAbsolute(path)) throw new ServiceError('invalid_argument', 'model_path must be an absolute path.', [{ path: 'model_path', message: 'must be an absolute path' }]);
  if (!/\.gguf$/i.test(path) && !/sha256-[0-9a-f]{64}$/.test(path)) {
    throw new ServiceError('invalid_argument', 'model_path must name a .gguf file.', [{ path: 'model_path', message: 'must name a .gguf file' }]);
  }
  const file = await ctx.runtime.local.inspect(path);
  if (!file) throw new ServiceError('invalid_argument', `There is no file at ${path}.`, [{ path: 'model_path', message: 'no such file' }]);
  if (!file.header) throw new ServiceError('unsupported_media_type', `${path} cannot be used: ${file.error ?? 'it is not a GGUF model.'}`, [{ path: 'model_path', message: file.error ?? 'not a GGUF model' }]);
  if (ctx.repos.models.localPaths().includes(path)) throw new ServiceError('conflict', 'This file is already registered.');
  return file;
}
