import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { ServiceError } from '../../../shared/errors.js';
import { ArtifactKey, NewArtifactKey, showBidiControls } from '../../../shared/operations/datasets.js';
import type { Caller } from '../../core/platform/context.js';
import type { Service } from '../../core/service/service.js';
import { fieldErrors } from '../../core/service/service.js';
import { MAX_PART_BYTES, signedPartOf } from '../../core/knowledge/uploads/part-url.js';
import { refuseUnread } from './early-auth.js';

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ServiceError('invalid_argument', 'The upload URL is malformed.', fieldErrors(result.error));
  return result.data;
}

/** RFC 6266 / 5987: a download name that survives any characters. */
function contentDisposition(filename: string, inline = false): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The query of a signed download link; both or neither. */
const SignedQuery = z
  .object({ expires: z.coerce.number().int().min(0).optional(), signature: z.string().min(1).max(200).optional() })
  .refine((q) => (q.expires === undefined) === (q.signature === undefined), { message: 'a signed link has both expires and signature', path: ['signature'] });

/**
 * Types a browser shows itself rather than saving: documents people open to read. Anything else
 * (Word files, archives) is saved, as a browser would do with it anyway.
 */
function showsInline(type: string): boolean {
  return /^(text\/(plain|markdown|csv|html)|application\/(pdf|json)|image\/(png|jpeg|gif|webp))\b/.test(type);
}

/** Markdown and CSV shown as the text they are: browsers save those types rather than show them. */
function shownType(type: string): string {
  return /^text\/(markdown|csv)\b/.test(type) ? 'text/plain; charset=utf-8' : type;
}

/**
 * Uploaded files are untrusted: whatever is shown runs in a sandbox (no script, an opaque origin,
 * so nothing of Parley's is reachable). Chromium's PDF viewer refuses to run in a sandboxed
 * document, so a PDF gets every fetch and script refused instead, and its viewer (a plugin) allowed.
 */
function contentPolicy(type: string): string {
  return type.startsWith('application/pdf') ? "default-src 'none'; object-src 'self'" : "default-src 'none'; sandbox";
}

/**
 * The upload routes that are not JSON: parts PUT to signed URLs (raw bytes, streamed to disk, no
 * bearer token), the multipart/form-data convenience route, and files served back.
 */
export function registerUploadRoutes(app: FastifyInstance, service: Service, authenticate: (request: FastifyRequest) => Caller): void {
  app.register(async (parts) => {
    // Any body type: a part is raw bytes, streamed as it arrives, never buffered.
    parts.removeAllContentTypeParsers();
    parts.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // The signature is checked on the URL before the body is read (early-auth.ts).
    parts.put('/api/uploads/:upload_id/parts/:artifact_id/:part', { bodyLimit: MAX_PART_BYTES, config: { auth: 'signed_part' } }, async (request, reply) => {
      const { grant, signature } = signedPartOf({ ...(request.params as object), ...(request.query as object) });
      const body = (request.body as Readable | undefined) ?? request.raw;
      try {
        const result = await service.receivePart(grant, signature, body);
        return { part: grant.part, ...result };
      } catch (error) {
        // A part refused before (or while) it is read (its file gone, its upload over) is not read on.
        refuseUnread(request, reply);
        throw error;
      }
    });
  });

  app.register(async (forms) => {
    await forms.register(fastifyMultipart, { limits: { files: 100, fields: 10, fileSize: Number.MAX_SAFE_INTEGER } });
    forms.post('/api/knowledge-bases/:kb_id/artifacts', { config: { auth: 'bearer' } }, async (request, reply) => {
      let caller: Caller;
      try {
        caller = authenticate(request);
      } catch (error) {
        refuseUnread(request, reply);
        throw error;
      }
      const { kb_id } = parse(z.object({ kb_id: z.string().regex(/^kb_[A-Za-z0-9]+$/) }), request.params);
      if (!request.isMultipart()) throw new ServiceError('unsupported_media_type', 'Send the files as multipart/form-data, one or more `file` fields.');
      const data = [];
      try {
        for await (const part of request.files()) {
          if (part.fieldname !== 'file') {
            part.file.resume();
            continue;
          }
          const key = NewArtifactKey.safeParse(part.filename);
          if (!key.success) {
            part.file.resume();
            throw new ServiceError('invalid_argument', `The file name ${JSON.stringify(showBidiControls(part.filename))} cannot be a key.`, fieldErrors(key.error));
          }
          data.push(await service.storeFile(caller, kb_id, { key: key.data, filename: part.filename, mime_type: part.mimetype || null, stream: part.file }));
        }
      } catch (error) {
        refuseUnread(request, reply);
        throw error;
      }
      if (data.length === 0) throw new ServiceError('invalid_argument', 'No `file` field in the form.');
      return reply.status(201).send({ data });
    });
  });

  // With the Bearer token: the file as a download. With a signed link (`artifacts.link`, what the UI
  // opens in a tab): shown in the browser where it can be, still sandboxed.
  app.get('/api/knowledge-bases/:kb_id/artifacts/:key/content', async (request, reply) => {
    const { kb_id, key } = parse(z.object({ kb_id: z.string().regex(/^kb_[A-Za-z0-9]+$/), key: ArtifactKey }), request.params);
    const signed = parse(SignedQuery, request.query);
    const { artifact, stream } =
      signed.signature === undefined ? service.artifactContent(authenticate(request), kb_id, key) : service.signedArtifactContent(kb_id, key, { expires: signed.expires ?? 0, signature: signed.signature });
    const type = artifact.mime_type ?? 'application/octet-stream';
    const inline = signed.signature !== undefined && showsInline(type);
    return reply
      .type(inline ? shownType(type) : type)
      .header('Content-Length', String(artifact.size))
      .header('Content-Disposition', contentDisposition(artifact.filename, inline))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .header('Referrer-Policy', 'no-referrer')
      .header('Content-Security-Policy', contentPolicy(type))
      .send(stream);
  });
}
