// pdf.js ships no types for its worker half; parsers/pdf.ts only imports it for its side effect.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
