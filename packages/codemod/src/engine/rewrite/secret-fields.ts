/**
 * Form fields of an elicitation that look like secrets, by the vocabulary the plugin's
 * no-sensitive-elicitation rule uses (`looksSecret` of @mcp-mrtr/surface: field names, titles,
 * descriptions, `format: 'password'`). Form mode must not ask for secrets; a legacy form that does
 * is migrated as written (the behaviour is the user's), and its report entry says so, since the
 * migrated request reads its fields through a generated params function the user may not look at.
 */
import { Node } from 'ts-morph';
import { ELICITATION_MODE_FIELD, ELICITATION_URL_MODE, REQUESTED_SCHEMA_FIELD, SECRET_SCHEMA_FORMATS, URL_ELICIT_BUILDER, looksSecret } from '@mcp-mrtr/surface';
import type { Site } from '../model.js';
import { unwrapExpression } from '../find/index.js';

/** `node`, or the object literal a `const` it names was initialised with. */
function objectLiteral(node: Node | undefined): Node | undefined {
  let value = node;
  for (let depth = 0; value && Node.isIdentifier(value) && depth < 3; depth++) {
    const declaration = value.getSymbol()?.getValueDeclaration();
    value = declaration && Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
  }
  const object = unwrapExpression(value);
  return object && Node.isObjectLiteralExpression(object) ? object : undefined;
}

function propertyNamed(object: Node, name: string): Node | undefined {
  if (!Node.isObjectLiteralExpression(object)) return undefined;
  const property = object.getProperty(name) ?? object.getProperty(`'${name}'`) ?? object.getProperty(`"${name}"`);
  if (property && Node.isPropertyAssignment(property)) return property.getInitializer();
  if (property && Node.isShorthandPropertyAssignment(property)) return property.getNameNode();
  return undefined;
}

function stringValue(node: Node | undefined): string | undefined {
  return node && (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) ? node.getLiteralText() : undefined;
}

/** The fields of a form elicitation's `requestedSchema` that look like secrets, each with why. */
export function secretFormFields(params: Node | undefined): string[] {
  const object = objectLiteral(params);
  if (!object || stringValue(propertyNamed(object, ELICITATION_MODE_FIELD)) === ELICITATION_URL_MODE) return [];
  const schema = objectLiteral(propertyNamed(object, REQUESTED_SCHEMA_FIELD));
  const fields = schema && objectLiteral(propertyNamed(schema, 'properties'));
  if (!fields || !Node.isObjectLiteralExpression(fields)) return [];
  const found: string[] = [];
  for (const property of fields.getProperties()) {
    if (!Node.isPropertyAssignment(property)) continue;
    const nameNode = property.getNameNode();
    const name = Node.isStringLiteral(nameNode) ? nameNode.getLiteralText() : nameNode.getText();
    if (looksSecret(name)) {
      found.push(`'${name}'`);
      continue;
    }
    const field = objectLiteral(property.getInitializer());
    if (!field) continue;
    const format = stringValue(propertyNamed(field, 'format'));
    const text = ['title', 'description'].map((attr) => stringValue(propertyNamed(field, attr))).find((t) => t !== undefined && looksSecret(t));
    if (format !== undefined && SECRET_SCHEMA_FORMATS.includes(format)) found.push(`'${name}' (format: '${format}')`);
    else if (text !== undefined) found.push(`'${name}' ("${text}")`);
  }
  return found;
}

/** The report note of a migrated form elicitation that asks for secrets; empty when it does not. */
export function secretFieldNote(site: Site): string {
  if (site.method !== 'elicitation/create') return '';
  const fields = secretFormFields(site.params);
  if (fields.length === 0) return '';
  return `; note: the form asks for ${fields.join(', ')}, which ${fields.length === 1 ? 'looks' : 'look'} like a secret: form mode must not ask for secrets (they travel through the client in clear), so ask for ${fields.length === 1 ? 'it' : 'them'} in URL mode (inputRequired.${URL_ELICIT_BUILDER}({ message, url }) to a page you control) and keep ${fields.length === 1 ? 'it' : 'them'} on the server (the lint rule @mcp-mrtr/no-sensitive-elicitation reports the form)`;
}
