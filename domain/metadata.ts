/**
 * Section 2.2: metadata is arbitrary merchant key-value pairs. Values are JSON strings, numbers
 * or booleans, stored in JSON columns and answered as sent (a number stays a number).
 */
export type MetadataValue = string | number | boolean;
export type Metadata = Record<string, MetadataValue>;
