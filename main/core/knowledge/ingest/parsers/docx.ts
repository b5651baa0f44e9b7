/**
 * DOCX (`mammoth`): mammoth maps Word styles to HTML (Heading 1–6 → h1–h6, Title → h1, numbered
 * and bulleted paragraphs → lists, tables → tables), and the HTML parser turns that into blocks.
 * Images are dropped (mammoth would inline them as base64).
 */
import mammoth from 'mammoth';
import { DocumentBuilder } from '../builder.js';
import { PARSE_LIMITS } from '../limits.js';
import { IngestError, type ParsedDocument } from '../types.js';
import { readZipDirectory } from '../zip-guard.js';
import { addHtml } from './html.js';

const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => p:fresh", "p[style-name='Quote'] => blockquote > p:fresh"];

/** Paragraph elements (`<w:p>`, `<w:p …>`, `<w:p/>`) in the document's XML, counted without parsing it. */
function countParagraphs(xml: Buffer, stopAt: number): number {
  let count = 0;
  for (let at = xml.indexOf('<w:p'); at !== -1 && count <= stopAt; at = xml.indexOf('<w:p', at + 4)) {
    const next = xml[at + 4];
    if (next === 0x3e || next === 0x20 || next === 0x2f || next === 0x09 || next === 0x0a || next === 0x0d) count++;
  }
  return count;
}

/**
 * Before mammoth inflates anything: the archive's declared size and entry count, then the main
 * XML part inflated under a hard bound and its paragraphs counted.
 */
async function checkDocx(bytes: Buffer): Promise<void> {
  const zip = await readZipDirectory(bytes, { maxEntries: PARSE_LIMITS.zipEntries, maxUnpackedBytes: PARSE_LIMITS.zipUnpackedBytes }, 'DOCX');
  const main = zip.entries.find((e) => e.name === 'word/document.xml');
  if (!main) throw new IngestError('parse_error', 'DOCX: the file is not a readable Word document (it has no word/document.xml).');
  const xml = await zip.read(main, PARSE_LIMITS.docxXmlBytes);
  const paragraphs = countParagraphs(xml, PARSE_LIMITS.docxParagraphs);
  if (paragraphs > PARSE_LIMITS.docxParagraphs) {
    throw new IngestError('too_large', `DOCX: the document has more than ${PARSE_LIMITS.docxParagraphs} paragraphs; it was not converted.`);
  }
}

export async function parseDocx(bytes: Buffer): Promise<ParsedDocument> {
  await checkDocx(bytes);
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
