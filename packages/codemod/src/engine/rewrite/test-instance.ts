/**
 * The instance a unit test calls a request method on (`picker` of `picker.pickSeat('12')`), when
 * the driver (test-calls.ts) can call the migrated method on it: a variable of the test file that
 * only ever holds instances the test builds itself (`new SeatPicker(...)` of the method's class or a
 * subclass). A variable holding a stand-in (`{ pickSeat: vi.fn() } as unknown as SeatPicker`) is
 * not one: the driver would hand the stand-in the context and key the migrated method takes.
 */
import { Node, type ClassDeclaration, type Identifier } from 'ts-morph';
import { referencesOf, unwrapExpression } from '../find/resolve.js';
import { abbreviate } from './purity.js';

/** The variable's name, or why the test's call is not on an instance the driver can call the method on. */
export function testInstance(testCallee: Node, method: Node): { name: string } | { obstacle: string } {
  const object = Node.isPropertyAccessExpression(testCallee) && !testCallee.getQuestionDotTokenNode() ? unwrapExpression(testCallee.getExpression()) : undefined;
  // the method's own class (a method of an object literal has none)
  const member = Node.isArrowFunction(method) ? method.getParent() : method;
  const cls = member?.getParent();
  if (!object || !Node.isIdentifier(object) || !cls || !Node.isClassDeclaration(cls)) return { obstacle: 'is not a call of the method on a variable holding an instance' };
  const values = valuesOf(object);
  if (values === undefined || values.length === 0) return { obstacle: `is on \`${object.getText()}\`, not a variable of the test file that the test assigns` };
  const stranger = values.find((v) => !builds(v, cls));
  if (stranger) return { obstacle: `is on \`${object.getText()}\`, which holds \`${abbreviate(stranger.getText(), 40)}\` (line ${stranger.getStartLineNumber()}), not an instance the test builds with \`new ${cls.getName() ?? 'its class'}(...)\`` };
  return { name: object.getText() };
}

/** Every value the test file's variable is given (its initializer and its assignments), or undefined when it is not such a variable. */
function valuesOf(name: Identifier): Node[] | undefined {
  const declaration = name.getSymbol()?.getDeclarations()[0];
  if (!declaration || !Node.isVariableDeclaration(declaration) || declaration.getSourceFile() !== name.getSourceFile()) return undefined;
  const nameNode = declaration.getNameNode();
  if (!Node.isIdentifier(nameNode)) return undefined;
  const values: Node[] = [];
  const init = declaration.getInitializer();
  if (init) values.push(init);
  const refs = referencesOf(nameNode);
  if (!refs) return undefined;
  for (const ref of refs) {
    const parent = ref.getParent();
    if (!parent || ref.getSourceFile() !== name.getSourceFile()) continue;
    if (Node.isBinaryExpression(parent) && parent.getLeft() === ref && parent.getOperatorToken().getText() === '=') values.push(parent.getRight());
    // any other write (`x ??= ...`, `[x] = ...`, `x++`) is a value the test does not build plainly
    else if ((Node.isBinaryExpression(parent) && parent.getLeft() === ref) || Node.isArrayLiteralExpression(parent) || Node.isPostfixUnaryExpression(parent) || Node.isPrefixUnaryExpression(parent)) return undefined;
  }
  return values;
}

/** `new C(...)` of the class or a class extending it. */
function builds(value: Node, cls: ClassDeclaration): boolean {
  const expr = unwrapExpression(value);
  if (!Node.isNewExpression(expr)) return false;
  let built = expr.getType().getSymbol()?.getDeclarations().find((d) => Node.isClassDeclaration(d));
  while (built && Node.isClassDeclaration(built)) {
    if (built === cls) return true;
    built = built.getBaseClass();
  }
  return false;
}
