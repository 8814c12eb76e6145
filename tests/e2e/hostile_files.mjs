// Hostile upload files (issue 31), written on demand for the tests and
// measurements: NUL bytes, and condor_status -json minified to one line.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness.mjs';

/** `mb` megabytes of NUL bytes at `file`; the file's path. */
export function nulFile(file, mb) {
  writeFileSync(file, Buffer.alloc(Math.round(mb * 1048576)));
  return file;
}

/**
 * condor_status -json as `jq -c` prints it: the corpus' slot ads repeated
 * (each with its own Name) to about `mb` megabytes, all on one line. Writes
 * `file`; returns its path (the ads' count is `ads(file)`).
 */
export function minifiedJson(file, mb) {
  const corpus = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'corpora', 'condor_status.json'), 'utf8'));
  const one = JSON.stringify(corpus).length / corpus.length;
  const n = Math.max(1, Math.round((mb * 1048576) / one));
  const ads = Array.from({ length: n }, (_, i) => ({ ...corpus[i % corpus.length], Name: `slot${i}@node${i % 97}` }));
  writeFileSync(file, JSON.stringify(ads) + '\n');
  return file;
}

/** How many ads a [`minifiedJson`] file holds. */
export function ads(file) {
  return JSON.parse(readFileSync(file, 'utf8')).length;
}
