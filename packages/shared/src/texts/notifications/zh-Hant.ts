/** Traditional Chinese: the inbox's messages — what a notification's type and parameters become (issue 30; the web mounts them under `notifications`). */
import type { NotificationTexts } from '../types';

export default {
  aCampaign: '某個推廣活動',
  reason: '原因：{{reason}}',
  reference: '匯款編號：{{reference}}',
  error: '錯誤：{{error}}',
  enrollment: {
    approved: {
      title: '「{{campaign}}」加入申請已核准',
      body: '建立推廣連結，開始分享吧。',
    },
    rejected: {
      title: '「{{campaign}}」加入申請未獲核准',
      body: '你加入此推廣活動的申請未獲核准。',
    },
  },
  commission: {
    created: {
      title: '新佣金 {{amount}}',
      titleTeam: '新團隊獎勵 {{amount}}',
      body: '來自「{{campaign}}」，鑑賞期結束後可提領。',
      bodyTeam: '來自團隊成員在「{{campaign}}」的訂單，鑑賞期結束後可提領。',
    },
    approved: {
      title: '{{amount}} 已可提領',
      titleTeam: '團隊獎勵 {{amount}} 已可提領',
      body: '「{{campaign}}」的佣金已結算，可以提領了。',
      bodyTeam: '「{{campaign}}」的團隊獎勵已結算，可以提領了。',
    },
    rejected: {
      title: '佣金未獲核准：{{amount}}',
      titleTeam: '團隊獎勵未獲核准：{{amount}}',
      body: '你在「{{campaign}}」的佣金未獲核准。',
      bodyTeam: '你在「{{campaign}}」的團隊獎勵未獲核准。',
    },
    reversed: {
      title: '佣金已扣回：{{amount}}',
      titleTeam: '團隊獎勵已扣回：{{amount}}',
      body: '「{{campaign}}」的訂單已退款，相應佣金已扣回。',
      bodyTeam: '團隊成員在「{{campaign}}」的訂單已退款，相應獎勵已扣回。',
      bodyClawback: '平台扣回了你在「{{campaign}}」的佣金。',
      bodyClawbackTeam: '平台扣回了你在「{{campaign}}」的團隊獎勵。',
    },
  },
  withdrawal: {
    requested: {
      title: '提領申請已送出：{{amount}}',
      body: '核准並匯款後，你將收到 {{net}}。',
    },
    approved: {
      title: '提領已核准：{{amount}}',
      body: '{{net}} 正在匯入你的帳戶。',
    },
    paid: {
      title: '提領已匯款：{{net}}',
      body: '款項已匯入你的收款帳戶。',
    },
    failed: {
      title: '提領匯款失敗：{{amount}}',
      body: '匯款未成功，金額已退回可提領餘額。',
    },
    rejected: {
      title: '提領未獲核准：{{amount}}',
      body: '金額已退回可提領餘額。',
    },
    cancelled: {
      title: '提領已取消：{{amount}}',
      body: '金額已退回可提領餘額。',
    },
  },
  adjustment: {
    creditTitle: '餘額入帳：{{amount}}',
    debitTitle: '餘額扣款：{{amount}}',
    body: '平台調整了你的可用餘額 {{amount}}。原因：{{reason}}',
    bodyNoReason: '平台調整了你的可用餘額 {{amount}}。',
  },
  bounty: {
    earned: {
      title: '獲得懸賞：{{amount}}',
      body: '你已完成「{{campaign}}」中的「{{bounty}}」。退貨期結束後即可提領。',
    },
    submission_rejected: {
      title: '憑證未通過：「{{bounty}}」',
      body: '你為「{{campaign}}」中這項懸賞提交的憑證未獲核准，可以重新提交。',
    },
  },
  unknown: {
    title: '新通知',
    body: '請更新應用程式以查看此通知的完整內容。',
  },
  staff: {
    registration: {
      title_other: '{{count}} 個註冊待審核',
      body: '有新的推廣員註冊，請在「註冊審核」中處理。',
    },
    enrollment: {
      title_other: '{{count}} 個加入申請待審核',
      body: '有推廣員申請加入活動，請在「加入申請」中處理。',
    },
    withdrawal: {
      title: '新的提領申請：{{amount}}',
      body_other: '{{count}} 筆提領待核准。',
    },
    webhook_disabled: {
      title: 'Webhook 端點已停用',
      body: '{{url}} 已停用：{{reason}}。不再向它傳送事件。',
      gone: '接收方回傳了 410 Gone',
      failing: '連續 5 天投遞全部失敗',
    },
    mail_failing: {
      title: '郵件傳送失敗',
      body: '有郵件未能傳送。郵件恢復正常之前，不會再次提醒您。',
    },
    ledger_breach: {
      title_other: '帳本檢查發現 {{count}} 個問題',
      body: '修正之前，餘額和報表可能有誤。請開啟帳本檢查查看每一項。',
    },
  },
} satisfies NotificationTexts;
