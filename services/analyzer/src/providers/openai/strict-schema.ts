/**
 * OpenAI's Structured Outputs subset of JSON Schema, as a checker: what a `response_format`
 * sent with `strict: true` may contain. Source: OpenAI API docs, Structured Outputs,
 * "Supported schemas" (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas).
 * Where the documented versions differ, the strictest applies, so a schema that passes here
 * passes every version of the API:
 * - the root is an object, not `anyOf`;
 * - every object sets `additionalProperties: false` and lists every property in `required`;
 * - types are string, number, integer, boolean, object, array, null, with `enum`, `anyOf`,
 *   `$ref`/`$defs` and `description`; every other keyword is refused, among them `minLength`,
 *   `maxLength`, `pattern`, `format`, `minimum`, `maximum`, `multipleOf`, `minItems`,
 *   `maxItems`, `uniqueItems`, `allOf`, `oneOf`, `not`, `if`/`then`/`else`,
 *   `patternProperties`, `minProperties`, `maxProperties` (lengths and counts are checked in
 *   code after parsing);
 * - at most 100 object properties in total and 5 levels of object nesting;
 * - at most 15,000 characters of property names, definition names and enum values, and at
 *   most 500 enum values.
 */

/** Keywords a strict schema may use. */
const ALLOWED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  '$ref',
  '$defs',
  'description',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Limits of the subset (the strictest documented values). */
export const STRICT_LIMITS = {
  properties: 100,
  nesting: 5,
  stringChars: 15_000,
  enumValues: 500,
} as const;

type TNode = Record<string, unknown>;

const context = (path: readonly string[]) =>
  `In context=(${path.map((p) => `'${p}'`).join(', ')}${path.length === 1 ? ',' : ''})`;

/**
 * The first way `schema` breaks the strict subset, worded as the API words it (e.g.
 * "In context=('properties', 'summary'), 'minLength' is not permitted."), or null when it fits.
 */
export function strictSchemaViolation(schema: unknown): string | null {
  const root = schema as TNode;
  if (!root || typeof root !== 'object' || Array.isArray(root))
    return 'schema must be a JSON Schema object.';
  if ('anyOf' in root) return "Root schema must not be 'anyOf'; it must be an object.";
  if (root.type !== 'object')
    return `Schema must be a JSON Schema of 'type: "object"', got 'type: "${String(root.type)}"'.`;
  let properties = 0;
  let enumValues = 0;
  let chars = 0;
  let maxDepth = 0;
  const visit = (node: unknown, path: string[], depth: number): string | null => {
    if (!node || typeof node !== 'object' || Array.isArray(node))
      return `${context(path)}, schema must be an object.`;
    const n = node as TNode;
    for (const key of Object.keys(n)) {
      if (key === '$schema' && path.length === 0) continue;
      if (!ALLOWED.has(key)) return `${context(path)}, '${key}' is not permitted.`;
    }
    if (n.$ref !== undefined) return null;
    if (n.anyOf !== undefined) {
      if (!Array.isArray(n.anyOf)) return `${context(path)}, 'anyOf' must be an array.`;
      for (const [i, sub] of n.anyOf.entries()) {
        const v = visit(sub, [...path, 'anyOf', String(i)], depth);
        if (v) return v;
      }
      return null;
    }
    const types = Array.isArray(n.type) ? n.type : [n.type];
    if (n.enum === undefined && (types.length === 0 || types[0] === undefined))
      return `${context(path)}, schema must have a 'type' key.`;
    for (const t of types)
      if (t !== undefined && !TYPES.has(String(t)))
        return `${context(path)}, type '${String(t)}' is not supported.`;
    if (n.enum !== undefined) {
      if (!Array.isArray(n.enum)) return `${context(path)}, 'enum' must be an array.`;
      enumValues += n.enum.length;
      for (const v of n.enum) chars += String(v).length;
    }
    if (types.includes('object')) {
      const d = depth + 1;
      maxDepth = Math.max(maxDepth, d);
      if (n.additionalProperties !== false)
        return `${context(path)}, 'additionalProperties' is required to be supplied and to be false.`;
      const props = n.properties;
      if (!props || typeof props !== 'object' || Array.isArray(props))
        return `${context(path)}, 'properties' is required to be supplied.`;
      const keys = Object.keys(props);
      const required: unknown[] | null = Array.isArray(n.required)
        ? (n.required as unknown[])
        : null;
      const missing = keys.filter((k) => !required?.includes(k));
      if (!required || missing.length > 0)
        return `${context(path)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0] ?? ''}'.`;
      const extra = required.find((k) => typeof k !== 'string' || !keys.includes(k));
      if (extra !== undefined)
        return `${context(path)}, 'required' names ${JSON.stringify(extra)}, which is not in properties.`;
      properties += keys.length;
      for (const k of keys) {
        chars += k.length;
        const v = visit((props as TNode)[k], [...path, 'properties', k], d);
        if (v) return v;
      }
    }
    if (types.includes('array')) {
      if (n.items === undefined) return `${context(path)}, 'items' is required for arrays.`;
      const v = visit(n.items, [...path, 'items'], depth);
      if (v) return v;
    }
    if (n.$defs !== undefined) {
      for (const [k, sub] of Object.entries(n.$defs as TNode)) {
        chars += k.length;
        const v = visit(sub, [...path, '$defs', k], depth);
        if (v) return v;
      }
    }
    return null;
  };
  const found = visit(root, [], 0);
  if (found) return found;
  if (maxDepth > STRICT_LIMITS.nesting)
    return `${maxDepth} levels of nesting exceeds limit of ${STRICT_LIMITS.nesting}.`;
  if (properties > STRICT_LIMITS.properties)
    return `${properties} parameters exceeds limit of ${STRICT_LIMITS.properties}.`;
  if (enumValues > STRICT_LIMITS.enumValues)
    return `${enumValues} enum values exceeds limit of ${STRICT_LIMITS.enumValues}.`;
  if (chars > STRICT_LIMITS.stringChars)
    return `${chars} characters of property names and enum values exceeds limit of ${STRICT_LIMITS.stringChars}.`;
  return null;
}
