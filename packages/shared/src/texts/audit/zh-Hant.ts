/** Traditional Chinese: the audit log's action and subject names (issue 30; the console mounts them under `auditAdmin`, the audit export writes `action_name`). */
import type { AuditTexts } from '../types';

export default {
  actions: {
    user: {
      register: '註冊',
      profile_update: '修改個人資料',
      password_change: '變更密碼',
      approve: '核准註冊',
      reject: '拒絕註冊',
      suspend: '停用帳號',
      reactivate: '恢復帳號',
      password_reset_link: '產生重設密碼連結',
      password_reset: '透過連結設定密碼',
      email_requested: '已向電子郵件地址寄出驗證連結',
      email_verified: '電子郵件地址已驗證',
    },
    session: {
      sign_in: '登入',
      sign_out: '登出',
      revoke: '登出某台裝置',
      revoke_all: '登出所有裝置',
    },
    staff: {
      create: '新增員工',
      invite: '產生員工邀請連結',
      update: '修改員工',
    },
    settings: {
      update: '變更設定',
    },
    crypto: {
      rotate_key: '輪替加密金鑰',
    },
    api_key: {
      create: '建立 API 金鑰',
      revoke: '撤銷 API 金鑰',
    },
    webhook: {
      create: '新增 Webhook 端點',
      update: '修改 Webhook 端點',
      rotate_secret: '輪換 Webhook 金鑰',
      delete: '刪除 Webhook 端點',
      test: '傳送 Webhook 測試',
      retry: '重試 Webhook 投遞',
    },
    integration: {
      stripe_secret: '設定 Stripe 簽署密鑰',
    },
    campaign: {
      create: '建立活動',
      update: '修改活動',
      activate: '啟動活動',
      pause: '暫停活動',
      end: '結束活動',
      rewards: '獎勵規則已修改',
      image_add: '新增活動圖片',
      image_remove: '移除活動圖片',
    },
    announcement: {
      create: '建立公告',
      update: '修改公告',
      publish: '發布公告',
      archive: '封存公告',
      delete: '刪除公告',
    },
    enrollment: {
      approve: '核准參加申請',
      reject: '拒絕參加申請',
      coupon: '設定優惠碼',
    },
    commission: {
      approve: '核准佣金',
      reject: '拒絕佣金',
      reverse: '扣回佣金',
    },
    conversion: {
      assign: '將轉換指派給推廣員',
    },
    binding: {
      end: '結束客戶歸屬',
      move: '將客戶歸屬轉給其他推廣員',
    },
    promoter: {
      adjust: '手動調整',
      export: '匯出推廣員',
      group: '已移至其他分組',
    },
    payout_account: {
      add: '新增收款帳戶',
      delete: '刪除收款帳戶',
    },
    withdrawal: {
      requested: '申請提領',
      approved: '核准提領',
      paid: '提領已付款',
      failed: '提領付款失敗',
      rejected: '拒絕提領',
      cancelled: '取消提領',
      export: '匯出提領（銀行批次）',
    },
    audit: {
      export: '匯出稽核紀錄',
    },
    group: {
      create: '已建立分組',
      update: '已修改分組',
      delete: '已刪除分組',
      invite_code: '已產生新的分組邀請連結',
    },
    application_form: {
      update: '已修改申請問題',
    },
    bounty: {
      create: '建立懸賞',
      update: '修改懸賞',
    },
    bounty_submission: {
      approve: '懸賞憑證已核准',
      reject: '懸賞憑證已拒絕',
    },
  },
  entities: {
    user: '使用者',
    session: '工作階段',
    settings: '設定',
    rsa_key: '加密金鑰',
    api_key: 'API 金鑰',
    webhook: 'Webhook 端點',
    campaign: '活動',
    announcement: '公告',
    enrollment: '參加申請',
    commission: '佣金',
    conversion: '轉換',
    binding: '客戶歸屬',
    payout_account: '收款帳戶',
    withdrawal: '提領',
    audit: '稽核紀錄',
    promoter: '推廣員',
    group: '推廣員分組',
    bounty: '懸賞',
    bounty_submission: '懸賞憑證',
  },
} satisfies AuditTexts;
