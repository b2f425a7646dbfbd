import { describe, expect, it } from 'vitest';
import { checkedRewrite, screenshotReviewText } from './openai.provider';
import {
  jsonSchemaOf,
  MODEL_SCHEMAS,
  strictResponseFormat,
  type TSchemaName,
} from './openai/openai.schemas';
import { STRICT_LIMITS, strictSchemaViolation } from './openai/strict-schema';

describe('openai provider helpers', () => {
  it('keeps a rewrite only within its limit: 30/31 characters, 100/101 bytes', () => {
    expect(checkedRewrite('title', 'a'.repeat(30))).toBe('a'.repeat(30));
    expect(checkedRewrite('title', 'a'.repeat(31))).toBeNull();
    expect(checkedRewrite('subtitle', 'é'.repeat(30))).toBe('é'.repeat(30));
    expect(checkedRewrite('keywords', 'é'.repeat(50))).toBe('é'.repeat(50));
    expect(checkedRewrite('keywords', `${'é'.repeat(50)}a`)).toBeNull();
    expect(checkedRewrite('keywords', 'music, radio')).toBeNull();
    expect(checkedRewrite('icon', 'anything')).toBeNull();
    expect(checkedRewrite('title', '   ')).toBeNull();
  });
  it('a screenshot review reads as one text ending with its "To improve" part', () => {
    expect(
      screenshotReviewText({
        summary: ' Bold captions. ',
        firstThree: 'Clear.',
        toImprove: ['A', ' ', 'B'],
      }),
    ).toBe('Bold captions. Clear. To improve: A; B.');
    expect(screenshotReviewText({ summary: '', firstThree: ' ', toImprove: ['A'] })).toBeNull();
  });
});

describe("OpenAI's strict Structured Outputs subset", () => {
  it.each(Object.keys(MODEL_SCHEMAS) as TSchemaName[])('the %s schema fits it', (name) => {
    expect(strictSchemaViolation(jsonSchemaOf(name))).toBeNull();
    expect(strictResponseFormat(name)).toMatchObject({
      type: 'json_schema',
      json_schema: { name, strict: true },
    });
  });

  const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...extra,
  });
  it.each([
    [
      obj({ a: { type: 'string', minLength: 1 } }),
      "In context=('properties', 'a'), 'minLength' is not permitted.",
    ],
    [
      obj({ a: { type: 'array', items: { type: 'string' }, uniqueItems: true } }),
      "'uniqueItems' is not permitted",
    ],
    [obj({ a: { type: 'string', pattern: '^x' } }), "'pattern' is not permitted"],
    [obj({ a: { type: 'integer', minimum: 0 } }), "'minimum' is not permitted"],
    [obj({ a: { oneOf: [{ type: 'string' }] } }), "'oneOf' is not permitted"],
    [obj({ a: { allOf: [{ type: 'string' }] } }), "'allOf' is not permitted"],
    [obj({}, { minProperties: 1 }), "'minProperties' is not permitted"],
    [
      { ...obj({ a: { type: 'string' } }), additionalProperties: true },
      "'additionalProperties' is required to be supplied and to be false",
    ],
    [{ ...obj({ a: { type: 'string' }, b: { type: 'string' } }), required: ['a'] }, "Missing 'b'"],
    [{ anyOf: [obj({})] }, "Root schema must not be 'anyOf'"],
    [{ type: 'array', items: { type: 'string' } }, `'type: "object"'`],
  ])('refuses %j', (schema, message) => {
    expect(strictSchemaViolation(schema)).toContain(message);
  });
  it('limits nesting to 5 levels and properties to 100', () => {
    let deep: Record<string, unknown> = obj({ leaf: { type: 'string' } });
    for (let i = 0; i < STRICT_LIMITS.nesting; i++) deep = obj({ next: deep });
    expect(strictSchemaViolation(deep)).toBe('6 levels of nesting exceeds limit of 5.');
    const wide = obj(
      Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, { type: 'string' }])),
    );
    expect(strictSchemaViolation(wide)).toBe('101 parameters exceeds limit of 100.');
  });
});
