/**
 * Traditional Chinese: what only the server writes — mails, its small HTML pages, the values of its CSV exports, the webhook test event
 * (issue 30). i18next's format, like every entry of the catalogue: `{{name}}` placeholders, counted
 * phrases as `<name>_<plural category>` keys chosen by Intl.PluralRules.
 */
import type { ServerTexts } from '../types';

export default {
  mail: {
    test: {
      subject: '{{app}}測試郵件',
      body: ['您好：', '這是一封來自{{app}}的測試郵件。能讀到它，表示郵件功能正常。'],
    },
    staff_invite: {
      subject: '邀請您加入{{app}}管理後台',
      body: ['{{name}}，您好：', '您已受邀加入{{app}}管理後台。請透過下方連結設定密碼；連結 30 分鐘內有效，僅可使用一次。'],
      action: '設定密碼',
    },
    password_reset: {
      subject: '設定新的{{app}}密碼',
      body: ['{{name}}，您好：', '已為您的{{app}}帳號產生設定新密碼的連結。在您透過下方連結設定新密碼之前，目前的密碼仍然有效；連結 30 分鐘內有效，僅可使用一次。'],
      action: '設定新密碼',
    },
    forgot_password: {
      subject: '重設您的{{app}}密碼',
      body: [
        '{{name}}，您好：',
        '有人申請重設您的{{app}}帳號密碼。如果是您本人，請透過下方連結設定新密碼；連結 30 分鐘內有效，僅可使用一次。',
        '如果不是您本人操作，請忽略本郵件，您的密碼不會改變。',
      ],
      action: '重設密碼',
    },
    verify_email: {
      subject: '確認您的{{app}}電子郵件地址',
      body: [
        '{{name}}，您好：',
        '您為{{app}}帳號新增了此電子郵件地址。請透過下方連結確認；連結 24 小時內有效，僅可使用一次。確認後，您的郵件和重設密碼連結將寄到此地址。',
        '如果不是您本人操作，請忽略本郵件，此地址不會被新增。',
      ],
      action: '確認電子郵件地址',
    },
    registration_approved: {
      subject: '歡迎加入{{app}}：您的帳號已通過審核',
      body: ['{{name}}，您好：', '您的註冊已通過審核。現在可以登入並開始分享您的推廣連結了。'],
      action: '開啟{{app}}',
    },
    registration_rejected: {
      subject: '您的{{app}}註冊結果',
      body: ['{{name}}，您好：', '很抱歉，您的註冊未通過審核。如有疑問，請聯絡邀請您的人。'],
    },
    commission_digest: {
      subject: '{{day}} 有 {{count}}佣金已審核通過',
      body: ['{{name}}，您好：', '{{day}} 您有 {{count}}佣金審核通過，共計 {{total}}，已計入可提領餘額。'],
      action: '查看我的佣金',
      counted: {
        count_other: '{{count}} 筆',
      },
    },
    withdrawal_paid: {
      subject: '您的提領已撥款：{{net}}',
      body: ['{{name}}，您好：', '{{net}} 已撥款至帳戶 {{account}}：提領 {{amount}}，扣除手續費 {{fee}}。', '付款參考編號：{{reference}}'],
      action: '查看提領',
    },
    withdrawal_failed: {
      subject: '您的 {{amount}} 提領撥款失敗',
      body: ['{{name}}，您好：', '您的 {{amount}} 提領撥款失敗：{{reason}}。金額已退回可提領餘額，請檢查收款帳戶後重新提領。'],
      action: '查看提領',
    },
    withdrawal_rejected: {
      subject: '您的 {{amount}} 提領已被駁回',
      body: ['{{name}}，您好：', '您的 {{amount}} 提領已被駁回：{{reason}}。金額已退回可提領餘額。'],
      action: '查看提領',
    },
    work_queue_summary: {
      subject: '{{app}}：{{total}}待處理',
      body: [
        '{{name}}，您好：',
        '今天早上待團隊處理：註冊 {{registrations}}，活動申請 {{enrollments}}，待審核佣金 {{commissions}}，待核准提領 {{withdrawalsToApprove}}，待撥款提領 {{withdrawalsToPay}}。',
      ],
      action: '開啟管理後台',
      counted: {
        total_other: '{{count}} 項',
        registrations_other: '{{count}} 個',
        enrollments_other: '{{count}} 個',
        commissions_other: '{{count}} 筆',
        withdrawalsToApprove_other: '{{count}} 筆',
        withdrawalsToPay_other: '{{count}} 筆',
      },
    },
    webhook_disabled: {
      subject: '{{app}}：一個 Webhook 端點已停用',
      body: ['Webhook 端點 {{url}} 已停用：{{reason}}。不再向它傳送事件。', '請檢查接收方，然後在管理後台重新啟用該端點。'],
      action: '開啟 Webhook',
    },
    staff_registration: {
      subject: '{{app}}：有新的註冊待審核',
      body: ['{{name}}，您好：', '有新的推廣員註冊，等待審核。目前待審核：{{count}}。'],
      action: '開啟註冊審核',
      counted: {
        count_other: '{{count}} 個',
      },
    },
    staff_enrollment: {
      subject: '{{app}}：有新的活動申請待審核',
      body: ['{{name}}，您好：', '有推廣員申請加入活動，等待審核。目前待審核：{{count}}。'],
      action: '開啟活動申請',
      counted: {
        count_other: '{{count}} 個',
      },
    },
    staff_withdrawal: {
      subject: '{{app}}：新的提領申請：{{amount}}',
      body: ['{{name}}，您好：', '有推廣員申請提領 {{amount}}。目前待核准：{{count}}。'],
      action: '開啟提領',
      counted: {
        count_other: '{{count}} 筆',
      },
    },
    mail_failing: {
      subject: '{{app}}：郵件傳送失敗',
      body: [
        '{{name}}，您好：',
        '有郵件未能傳送：{{error}}。系統會在數小時內重試；請檢查郵件伺服器（SMTP_URL）和管理後台的「郵件」頁面。',
        '郵件恢復正常之前，不會再次提醒您。',
      ],
      action: '開啟郵件頁面',
    },
    ledger_breach: {
      subject: '{{app}}：帳本檢查發現 {{count}}問題',
      body: ['{{name}}，您好：', '帳本檢查發現 {{count}}問題。修正之前，餘額和報表可能有誤：請開啟帳本檢查查看每一項。', '只有發現的問題改變時，才會再次提醒您。'],
      action: '開啟帳本檢查',
      counted: {
        count_other: '{{count}} 個',
      },
    },
  },
  mailChrome: {
    optOut: '您可以在{{app}}的「我的 → 電子郵件通知」中關閉此類郵件。',
    automatic: '本郵件由{{app}}自動傳送。',
    open: '開啟：',
    colon: '：',
  },
  pages: {
    linkNotFoundTitle: '連結不存在',
    linkNotFoundBody: '這個推廣連結不存在或已被刪除，請向分享者確認。',
    notFoundTitle: '頁面不存在',
    notFoundBody: '你要找的頁面不存在或已被移除。',
    errorTitle: '發生錯誤',
    errorBody: '伺服器發生問題，請稍後再試。',
    backHome: '返回首頁',
  },
  commissionCsv: {
    status: {
      pending: '待結算',
      approved: '已結算',
      rejected: '已拒絕',
      reversed: '已扣回',
    },
    level: {
      direct: '直接',
      team: '團隊獎勵',
    },
  },
  auditCsv: {
    system: '系統',
  },
  webhookTest: {
    message: '來自 {{app}} 的測試事件。',
  },
} satisfies ServerTexts;
