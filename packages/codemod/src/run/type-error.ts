/**
 * A type error the compiler reports in a file of the run, as verify, the upgrade's own check and the
 * importers check record it (its own module: the run state holds them, verify computes them).
 */
export interface TypeError {
  /** As `errorKeys` spells it (compared with the original's). */
  key: string;
  /** The compiler's message, its first level only (the elaboration can run to pages). */
  message: string;
  /** The elaboration's innermost line, abbreviated: what does not fit, where the first level only says that something does not. */
  detail?: string;
  start: number;
  /** 1-based, in the file's current text. */
  line: number;
  /** 1-based, in the user's file, when the text it was found in is not the one the file's line map starts from (the rewrite changed it after the upgrade). */
  originalLine?: number;
  column: number;
  snippet: string;
  /** What causes it, when known beyond the compiler's message (an installed zod below v2's floor). */
  cause?: string;
  /** What to do instead of the generic advice. */
  advice?: string;
}
