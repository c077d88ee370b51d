/** Simplified Chinese: the inbox's messages — what a notification's type and parameters become (issue 30; the web mounts them under `notifications`). */
import type { NotificationTexts } from '../types';

export default {
  aCampaign: '某推广活动',
  reason: '原因：{{reason}}',
  reference: '打款流水号：{{reference}}',
  error: '错误：{{error}}',
  enrollment: {
    approved: {
      title: '“{{campaign}}”加入申请已通过',
      body: '创建推广链接，开始分享吧。',
    },
    rejected: {
      title: '“{{campaign}}”加入申请未通过',
      body: '你加入此推广活动的申请未获批准。',
    },
  },
  commission: {
    created: {
      title: '新佣金 {{amount}}',
      titleTeam: '新团队奖励 {{amount}}',
      body: '来自“{{campaign}}”，退货期结束后可提现。',
      bodyTeam: '来自团队成员在“{{campaign}}”的订单，退货期结束后可提现。',
    },
    approved: {
      title: '{{amount}} 已可提现',
      titleTeam: '团队奖励 {{amount}} 已可提现',
      body: '“{{campaign}}”的佣金已结算，可以提现了。',
      bodyTeam: '“{{campaign}}”的团队奖励已结算，可以提现了。',
    },
    rejected: {
      title: '佣金未通过：{{amount}}',
      titleTeam: '团队奖励未通过：{{amount}}',
      body: '你在“{{campaign}}”的佣金未获通过。',
      bodyTeam: '你在“{{campaign}}”的团队奖励未获通过。',
    },
    reversed: {
      title: '佣金已扣回：{{amount}}',
      titleTeam: '团队奖励已扣回：{{amount}}',
      body: '“{{campaign}}”的订单已退款，相应佣金已扣回。',
      bodyTeam: '团队成员在“{{campaign}}”的订单已退款，相应奖励已扣回。',
      bodyClawback: '平台扣回了你在“{{campaign}}”的佣金。',
      bodyClawbackTeam: '平台扣回了你在“{{campaign}}”的团队奖励。',
    },
  },
  withdrawal: {
    requested: {
      title: '提现申请已提交：{{amount}}',
      body: '审核通过并打款后，你将收到 {{net}}。',
    },
    approved: {
      title: '提现审核通过：{{amount}}',
      body: '{{net}} 正在打款到你的账户。',
    },
    paid: {
      title: '提现已打款：{{net}}',
      body: '款项已转入你的收款账户。',
    },
    failed: {
      title: '提现打款失败：{{amount}}',
      body: '打款未成功，金额已退回可提现余额。',
    },
    rejected: {
      title: '提现未通过：{{amount}}',
      body: '金额已退回可提现余额。',
    },
    cancelled: {
      title: '提现已取消：{{amount}}',
      body: '金额已退回可提现余额。',
    },
  },
  adjustment: {
    creditTitle: '余额入账：{{amount}}',
    debitTitle: '余额扣款：{{amount}}',
    body: '平台调整了你的可用余额 {{amount}}。原因：{{reason}}',
    bodyNoReason: '平台调整了你的可用余额 {{amount}}。',
  },
  bounty: {
    earned: {
      title: '获得悬赏：{{amount}}',
      body: '你已完成「{{campaign}}」中的「{{bounty}}」。退货期结束后即可提现。',
    },
    submission_rejected: {
      title: '凭证未通过：「{{bounty}}」',
      body: '你为「{{campaign}}」中这项悬赏提交的凭证未通过审核，可以重新提交。',
    },
  },
  unknown: {
    title: '新通知',
    body: '请更新应用以查看此通知的完整内容。',
  },
  staff: {
    registration: {
      title_other: '{{count}} 个注册待审核',
      body: '有新的推广员注册，请在“注册审核”中处理。',
    },
    enrollment: {
      title_other: '{{count}} 个加入申请待审核',
      body: '有推广员申请加入活动，请在“加入申请”中处理。',
    },
    withdrawal: {
      title: '新的提现申请：{{amount}}',
      body_other: '{{count}} 笔提现待审批。',
    },
    webhook_disabled: {
      title: 'Webhook 端点已停用',
      body: '{{url}} 已停用：{{reason}}。不再向它发送事件。',
      gone: '接收方返回了 410 Gone',
      failing: '连续 5 天投递全部失败',
    },
    mail_failing: {
      title: '邮件发送失败',
      body: '有邮件未能发送。邮件恢复正常之前，不会再次提醒您。',
    },
    ledger_breach: {
      title_other: '账本检查发现 {{count}} 个问题',
      body: '修复之前，余额和报表可能有误。请打开账本检查查看每一项。',
    },
  },
} satisfies NotificationTexts;
