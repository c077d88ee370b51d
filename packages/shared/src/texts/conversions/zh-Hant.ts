/** Traditional Chinese: what a conversion is and how it was credited (issue 30; the web mounts them under `conversions`, the promoter's commission export writes `kind`). */
import type { ConversionTexts } from '../types';

export default {
  kind: {
    lead: '註冊',
    sale: '訂單',
    refund: '退款',
    bounty: '懸賞',
  },
  attributedBy: {
    coupon: '優惠碼',
    click: '點擊連結',
    customer: '回購客戶',
    link: '連結代碼',
    staff: '工作人員指派',
  },
} satisfies ConversionTexts;
