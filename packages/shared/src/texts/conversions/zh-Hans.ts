/** Simplified Chinese: what a conversion is and how it was credited (issue 30; the web mounts them under `conversions`, the promoter's commission export writes `kind`). */
import type { ConversionTexts } from '../types';

export default {
  kind: {
    lead: '注册',
    sale: '订单',
    refund: '退款',
    bounty: '悬赏',
  },
  attributedBy: {
    coupon: '优惠码',
    click: '点击链接',
    customer: '老客户',
    link: '链接代码',
    staff: '工作人员指派',
  },
} satisfies ConversionTexts;
