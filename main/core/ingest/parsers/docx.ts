/**
 * DOCX (`mammoth`): mammoth maps Word styles to HTML (Heading 1–6 → h1–h6, Title → h1, numbered
 * and bulleted paragraphs → lists, tables → tables), and the HTML parser turns that into blocks.
 * Images are dropped (mammoth would inline them as base64).
 */
import mammoth from 'mammoth';
import { DocumentBuilder } from '../builder.js';
import { IngestError, type ParsedDocument } from '../types.js';
import { addHtml } from './html.js';

const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => p:fresh", "p[style-name='Quote'] => blockquote > p:fresh"];

export async function parseDocx(bytes: Buffer): Promise<ParsedDocument> {
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      { styleMap: STYLE_MAP, ignoreEmptyParagraphs: true, externalFileAccess: false, convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })) },
    );
    html = result.value;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new IngestError('parse_error', `DOCX: the file is not a readable Word document (${reason}).`);
  }
  const builder = new DocumentBuilder();
  addHtml(builder, html);
  return builder.build({ format: 'docx' });
}
