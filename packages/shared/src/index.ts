export * from './errors';
export * from './locales';
export * from './rules';
export * from './schemas';
export * from './admin-promoters';
export * from './admin-staff';
export * from './admin-audit';
export * from './admin-overview';
