export * from './errors';
export * from './locales';
export * from './rules';
export * from './schemas';
