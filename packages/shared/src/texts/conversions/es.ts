/** Spanish: what a conversion is and how it was credited (issue 30; the web mounts them under `conversions`, the promoter's commission export writes `kind`). */
import type { ConversionTexts } from '../types';

export default {
  kind: {
    lead: 'Registro',
    sale: 'Venta',
    refund: 'Reembolso',
    bounty: 'Bonificación',
  },
  attributedBy: {
    coupon: 'Cupón',
    click: 'Clic en el enlace',
    customer: 'Cliente recurrente',
    link: 'Código del enlace',
    staff: 'Asignada por el equipo',
  },
} satisfies ConversionTexts;
