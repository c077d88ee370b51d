import { ErrorBodySchema } from '@pa/shared';

/** Every route documents the one error shape for 4xx and 5xx. */
export const errorResponses = { '4xx': ErrorBodySchema, '5xx': ErrorBodySchema } as const;
