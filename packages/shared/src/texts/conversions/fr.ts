/** French: what a conversion is and how it was credited (issue 30; the web mounts them under `conversions`, the promoter's commission export writes `kind`). */
import type { ConversionTexts } from '../types';

export default {
  kind: {
    lead: 'Inscription',
    sale: 'Vente',
    refund: 'Remboursement',
    bounty: 'Prime',
  },
  attributedBy: {
    coupon: 'Code promo',
    click: 'Clic sur un lien',
    customer: 'Client fidèle',
    link: 'Code du lien',
    staff: 'Attribuée par l’équipe',
  },
} satisfies ConversionTexts;
