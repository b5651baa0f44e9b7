// The preload entry: bundled to one CommonJS file (scripts/build-main.mjs), because a sandboxed
// preload cannot load modules. Never loaded by tests: importing electron under Node throws.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge.js';

contextBridge.exposeInMainWorld('parley', createBridge(ipcRenderer));
