/**
 * Lines that reasons cite. The engine analyses the text after the v1-to-v2 upgrade (which merges
 * and moves imports) and, after an inlining pass, text it rewrote itself; a report must name lines
 * of the file the user ran on. The orchestration installs a mapper for the duration of a stage;
 * without one (unit tests on a single text) lines are those of the analysed text.
 */
import type { Node, SourceFile } from 'ts-morph';

/** Line of the analysed text of `sourceFile` → line of the user's file. */
export type OriginalLineOf = (sourceFile: SourceFile, line: number) => number;

let current: OriginalLineOf | undefined;

/** Runs `fn` with `mapper` deciding the lines reasons cite (restored afterwards, also on a throw). */
export function withOriginalLines<T>(mapper: OriginalLineOf | undefined, fn: () => T): T {
  const previous = current;
  current = mapper ?? previous;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

/** The line of the user's file that `node`'s own text starts on (after leading comments). */
export function reportLine(node: Node): number {
  const line = node.getStartLineNumber();
  return current ? current(node.getSourceFile(), line) : line;
}

/** A line of `sourceFile`'s analysed text, as a line of the user's file. */
export function reportLineIn(sourceFile: SourceFile, line: number): number {
  return current ? current(sourceFile, line) : line;
}

let reading: SourceFile | undefined;

/**
 * Runs `fn` with `file` as the file where the reasons it builds are read (the request's file, where
 * the report entry and the marker sit): a line of another file (the handler reaching a helper of
 * another module) is then cited with that file's name.
 */
export function withReadingFile<T>(file: SourceFile | undefined, fn: () => T): T {
  const previous = reading;
  reading = file;
  try {
    return fn();
  } finally {
    reading = previous;
  }
}

/** `reportLineIn(sourceFile, line)`, as `N of file.ts` when `sourceFile` is another file than the one the reason is read in. */
export function reportPlaceIn(sourceFile: SourceFile, line: number): number | string {
  const mapped = reportLineIn(sourceFile, line);
  return reading && sourceFile !== reading ? `${mapped} of ${sourceFile.getBaseName()}` : mapped;
}

/** `reportLine(node)`, as `N of file.ts` when `node` is in another file than the one the reason is read in. */
export function reportPlace(node: Node): number | string {
  const line = reportLine(node);
  const file = node.getSourceFile();
  return reading && file !== reading ? `${line} of ${file.getBaseName()}` : line;
}
