/** English: what a conversion is and how it was credited (issue 30; the web mounts them under `conversions`, the promoter's commission export writes `kind`). */
import type { ConversionTexts } from '../types';

export default {
  kind: {
    lead: 'Sign-up (lead)',
    sale: 'Sale',
    refund: 'Refund',
    bounty: 'Bounty',
  },
  attributedBy: {
    coupon: 'Coupon code',
    click: 'Link click',
    customer: 'Returning customer',
    link: 'Link code',
    staff: 'Assigned by staff',
  },
} satisfies ConversionTexts;
