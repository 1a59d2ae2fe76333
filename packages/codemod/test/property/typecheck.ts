/** Typechecks a batch of files in ONE TypeScript program (strict, NodeNext) against the real SDK types. */
import ts from 'typescript';

export function typecheck(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    esModuleInterop: true,
    types: ['node'],
  });
  const byFile = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName;
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const where = d.file && d.start !== undefined ? `${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    const list = (file && byFile.get(file)) || byFile.get(files.find((f) => f === file) ?? '') ;
    if (list) list.push(`${where}TS${d.code} ${text}`);
    else {
      const other = byFile.get('<other>') ?? [];
      other.push(`${file ?? '(global)'}: ${where}TS${d.code} ${text}`);
      byFile.set('<other>', other);
    }
  }
  return byFile;
}
