// A stylesheet imported for its side effect (vite bundles it with the importing chunk): KaTeX's.
declare module '*.css';
