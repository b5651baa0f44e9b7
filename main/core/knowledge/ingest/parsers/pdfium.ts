/**
 * PDFium (Chromium's PDF engine, BSD-3-Clause) compiled to WebAssembly, as shipped inside the
 * `@hyzyla/pdfium` npm package (MIT; the .wasm is in the package, nothing is downloaded at install
 * or at run time). Only the few C functions text extraction needs are used, called directly: the
 * wrapper's page objects are never closed, which leaks a page per page read.
 *
 * Loaded once per parser process, on the first PDF (the module holds a few MB of memory that a
 * process reading only text files does not need).
 */
import { PDFiumModule } from '@hyzyla/pdfium';

/** The part of PDFium's C API used here (emscripten exports; pointers are offsets into HEAPU8). */
export interface PdfiumApi {
  HEAPU8: Uint8Array;
  HEAPF64: Float64Array;
  wasmExports: { malloc: (size: number) => number; free: (ptr: number) => void };
  _FPDF_InitLibrary(): void;
  _FPDF_GetLastError(): number;
  _FPDF_LoadMemDocument(data: number, size: number, password: number): number;
  _FPDF_CloseDocument(doc: number): void;
  _FPDF_GetPageCount(doc: number): number;
  _FPDF_GetMetaText(doc: number, tag: number, buffer: number, length: number): number;
  _FPDF_LoadPage(doc: number, index: number): number;
  _FPDF_ClosePage(page: number): void;
  _FPDFText_LoadPage(page: number): number;
  _FPDFText_ClosePage(textPage: number): void;
  _FPDFText_CountChars(textPage: number): number;
  _FPDFText_GetText(textPage: number, start: number, count: number, buffer: number): number;
  _FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number;
  _FPDFText_GetFontSize(textPage: number, index: number): number;
}

/** FPDF_GetLastError codes (fpdfview.h). */
export const FPDF_ERR = { unknown: 1, file: 2, format: 3, password: 4, security: 5, page: 6 } as const;

let loading: Promise<PdfiumApi> | null = null;

export function loadPdfium(): Promise<PdfiumApi> {
  loading ??= (async () => {
    // The package types its module loosely; this interface names the exports used here.
    const api = (await PDFiumModule({})) as unknown as PdfiumApi;
    api._FPDF_InitLibrary();
    return api;
  })();
  return loading;
}

/** Drops the instance (after a trap inside it); the next PDF loads a fresh one. */
export function resetPdfium(): void {
  loading = null;
}

const utf16 = new TextDecoder('utf-16le');

/** Reads `units` UTF-16 code units at `ptr`. */
export function readUtf16(api: PdfiumApi, ptr: number, units: number): string {
  return units <= 0 ? '' : utf16.decode(api.HEAPU8.subarray(ptr, ptr + units * 2));
}

/** A NUL-terminated ASCII string in wasm memory; the caller frees it. */
export function cString(api: PdfiumApi, text: string): number {
  const bytes = Buffer.from(`${text}\0`, 'latin1');
  const ptr = api.wasmExports.malloc(bytes.length);
  api.HEAPU8.set(bytes, ptr);
  return ptr;
}
