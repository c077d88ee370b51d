/**
 * The OpenAPI document's schemas as the tests read them, and a plausible value for each: what a
 * well-formed request would send (the fuzz test puts one bad value in it at a time; the document
 * test sends it as is).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: Json[];
  const?: Json;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  minLength?: number;
  minItems?: number;
  nullable?: boolean;
  pattern?: string;
  format?: string;
  default?: Json;
}
export interface Parameter { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: JsonSchema }
export interface Operation { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }

/** A plausible value for a schema: what a well-formed request would send, so one bad field stands out. */
export function sample(schema: JsonSchema | undefined, name = ''): Json {
  if (!schema) return 'sample';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0]!;
  if (schema.default !== undefined) return schema.default;
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt?.length) return sample(alt.find((s) => s.type !== 'null') ?? alt[0], name);
  if (schema.allOf?.length) return sample(schema.allOf[0], name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key], key);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items, name));
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return false;
    case 'string':
      if (schema.pattern === '^[0-9a-fA-F]{64}$') return 'a'.repeat(64);
      if (/url/i.test(name)) return 'https://shop.example.com/fuzz';
      if (/account/i.test(name)) return 'fuzz@example.com';
      return 'fuzz-value'.padEnd(schema.minLength ?? 0, 'z');
    default:
      return 'sample';
  }
}
