/**
 * Simplified Chinese: what only the server writes — mails, its small HTML pages, the values of its CSV exports, the webhook test event
 * (issue 30). i18next's format, like every entry of the catalogue: `{{name}}` placeholders, counted
 * phrases as `<name>_<plural category>` keys chosen by Intl.PluralRules.
 */
import type { ServerTexts } from '../types';

export default {
  mail: {
    test: {
      subject: '{{app}}测试邮件',
      body: ['您好：', '这是一封来自{{app}}的测试邮件。能读到它，说明邮件功能正常。'],
    },
    staff_invite: {
      subject: '邀请您加入{{app}}管理后台',
      body: ['{{name}}，您好：', '您已受邀加入{{app}}管理后台。请通过下方链接设置密码；链接 30 分钟内有效，仅可使用一次。'],
      action: '设置密码',
    },
    password_reset: {
      subject: '设置新的{{app}}密码',
      body: ['{{name}}，您好：', '已为您的{{app}}账号生成设置新密码的链接。在您通过下方链接设置新密码之前，当前密码仍然有效；链接 30 分钟内有效，仅可使用一次。'],
      action: '设置新密码',
    },
    forgot_password: {
      subject: '重置您的{{app}}密码',
      body: [
        '{{name}}，您好：',
        '有人申请重置您的{{app}}账号密码。如果是您本人，请通过下方链接设置新密码；链接 30 分钟内有效，仅可使用一次。',
        '如果不是您本人操作，请忽略本邮件，您的密码不会改变。',
      ],
      action: '重置密码',
    },
    verify_email: {
      subject: '确认您的{{app}}邮箱地址',
      body: [
        '{{name}}，您好：',
        '您为{{app}}账号添加了此邮箱地址。请通过下方链接确认；链接 24 小时内有效，仅可使用一次。确认后，您的邮件和重置密码链接将发送到此邮箱。',
        '如果不是您本人操作，请忽略本邮件，此地址不会被添加。',
      ],
      action: '确认邮箱地址',
    },
    registration_approved: {
      subject: '欢迎加入{{app}}：您的账号已通过审核',
      body: ['{{name}}，您好：', '您的注册已通过审核。现在可以登录并开始分享您的推广链接了。'],
      action: '打开{{app}}',
    },
    registration_rejected: {
      subject: '您的{{app}}注册结果',
      body: ['{{name}}，您好：', '很抱歉，您的注册未通过审核。如有疑问，请联系邀请您的人。'],
    },
    commission_digest: {
      subject: '{{day}} 有 {{count}}佣金已审核通过',
      body: ['{{name}}，您好：', '{{day}} 您有 {{count}}佣金审核通过，共计 {{total}}，已计入可提现余额。'],
      action: '查看我的佣金',
      counted: {
        count_other: '{{count}} 笔',
      },
    },
    withdrawal_paid: {
      subject: '您的提现已打款：{{net}}',
      body: ['{{name}}，您好：', '{{net}} 已打款至账户 {{account}}：提现 {{amount}}，扣除手续费 {{fee}}。', '付款参考号：{{reference}}'],
      action: '查看提现',
    },
    withdrawal_failed: {
      subject: '您的 {{amount}} 提现打款失败',
      body: ['{{name}}，您好：', '您的 {{amount}} 提现打款失败：{{reason}}。金额已退回可提现余额，请检查收款账户后重新提现。'],
      action: '查看提现',
    },
    withdrawal_rejected: {
      subject: '您的 {{amount}} 提现已被驳回',
      body: ['{{name}}，您好：', '您的 {{amount}} 提现已被驳回：{{reason}}。金额已退回可提现余额。'],
      action: '查看提现',
    },
    work_queue_summary: {
      subject: '{{app}}：{{total}}待处理',
      body: [
        '{{name}}，您好：',
        '今天早上待团队处理：注册 {{registrations}}，活动申请 {{enrollments}}，待审核佣金 {{commissions}}，待审批提现 {{withdrawalsToApprove}}，待打款提现 {{withdrawalsToPay}}。',
      ],
      action: '打开管理后台',
      counted: {
        total_other: '{{count}} 项',
        registrations_other: '{{count}} 个',
        enrollments_other: '{{count}} 个',
        commissions_other: '{{count}} 笔',
        withdrawalsToApprove_other: '{{count}} 笔',
        withdrawalsToPay_other: '{{count}} 笔',
      },
    },
    webhook_disabled: {
      subject: '{{app}}：一个 Webhook 端点已停用',
      body: ['Webhook 端点 {{url}} 已停用：{{reason}}。不再向它发送事件。', '请检查接收方，然后在管理后台重新启用该端点。'],
      action: '打开 Webhook',
    },
    staff_registration: {
      subject: '{{app}}：有新的注册待审核',
      body: ['{{name}}，您好：', '有新的推广员注册，等待审核。目前待审核：{{count}}。'],
      action: '打开注册审核',
      counted: {
        count_other: '{{count}} 个',
      },
    },
    staff_enrollment: {
      subject: '{{app}}：有新的活动申请待审核',
      body: ['{{name}}，您好：', '有推广员申请加入活动，等待审核。目前待审核：{{count}}。'],
      action: '打开活动申请',
      counted: {
        count_other: '{{count}} 个',
      },
    },
    staff_withdrawal: {
      subject: '{{app}}：新的提现申请：{{amount}}',
      body: ['{{name}}，您好：', '有推广员申请提现 {{amount}}。目前待审批：{{count}}。'],
      action: '打开提现',
      counted: {
        count_other: '{{count}} 笔',
      },
    },
    mail_failing: {
      subject: '{{app}}：邮件发送失败',
      body: [
        '{{name}}，您好：',
        '有邮件未能发送：{{error}}。系统会在数小时内重试；请检查邮件服务器（SMTP_URL）和管理后台的“邮件”页面。',
        '邮件恢复正常之前，不会再次提醒您。',
      ],
      action: '打开邮件页面',
    },
    ledger_breach: {
      subject: '{{app}}：账本检查发现 {{count}}问题',
      body: ['{{name}}，您好：', '账本检查发现 {{count}}问题。修复之前，余额和报表可能有误：请打开账本检查查看每一项。', '只有发现的问题发生变化时，才会再次提醒您。'],
      action: '打开账本检查',
      counted: {
        count_other: '{{count}} 个',
      },
    },
  },
  mailChrome: {
    optOut: '您可以在{{app}}的“我的 → 邮件通知”中关闭此类邮件。',
    automatic: '本邮件由{{app}}自动发送。',
    open: '打开：',
    colon: '：',
  },
  pages: {
    linkNotFoundTitle: '链接不存在',
    linkNotFoundBody: '这个推广链接不存在或已被删除，请向分享者确认。',
    notFoundTitle: '页面不存在',
    notFoundBody: '你要找的页面不存在或已被移除。',
    errorTitle: '出错了',
    errorBody: '服务器出现问题，请稍后再试。',
    backHome: '返回首页',
  },
  commissionCsv: {
    status: {
      pending: '待结算',
      approved: '已结算',
      rejected: '已拒绝',
      reversed: '已扣回',
    },
    level: {
      direct: '直接',
      team: '团队奖励',
    },
  },
  auditCsv: {
    system: '系统',
  },
  webhookTest: {
    message: '来自 {{app}} 的测试事件。',
  },
} satisfies ServerTexts;
