import type { AnswerLanguage } from './answer-language.js';

/**
 * What the built-in model says around its quotes, in the question's language: a Chinese question
 * answered "I found nothing…" in English reads as broken. The quotes themselves stay as the files
 * wrote them.
 */
export interface Framing {
  /** Before the quotes. */
  quotes: string;
  /** When no sentence of the passages holds a word of the question. */
  nothingFound: string;
  /** When no dataset is attached at all. */
  noDataset: string;
}

export const FRAMINGS: Record<AnswerLanguage, Framing> = {
  en: {
    quotes: 'From your datasets:',
    nothingFound: 'I found nothing in the attached datasets that answers this. Try other words, attach another dataset, or choose a generative model.',
    noDataset:
      'I am the built-in extractive model: I answer only from the passages of the datasets attached to a conversation, and none is attached here. ' +
      'Attach a dataset to this thread (or to your message), or choose a generative model.',
  },
  de: {
    quotes: 'Aus Ihren Datensätzen:',
    nothingFound:
      'In den angehängten Datensätzen habe ich nichts gefunden, was dies beantwortet. Versuchen Sie andere Wörter, hängen Sie einen anderen Datensatz an oder wählen Sie ein generatives Modell.',
    noDataset:
      'Ich bin das eingebaute extraktive Modell: Ich antworte nur aus den Passagen der Datensätze, die einer Unterhaltung angehängt sind, und hier ist keiner angehängt. ' +
      'Hängen Sie diesem Thread (oder Ihrer Nachricht) einen Datensatz an oder wählen Sie ein generatives Modell.',
  },
  fr: {
    quotes: 'D’après vos jeux de données :',
    nothingFound:
      'Je n’ai rien trouvé dans les jeux de données joints qui réponde à cette question. Essayez d’autres mots, joignez un autre jeu de données ou choisissez un modèle génératif.',
    noDataset:
      'Je suis le modèle extractif intégré : je réponds uniquement à partir des passages des jeux de données joints à une conversation, et aucun n’est joint ici. ' +
      'Joignez un jeu de données à ce fil (ou à votre message), ou choisissez un modèle génératif.',
  },
  es: {
    quotes: 'De sus conjuntos de datos:',
    nothingFound:
      'No encontré nada en los conjuntos de datos adjuntos que responda a esto. Pruebe con otras palabras, adjunte otro conjunto de datos o elija un modelo generativo.',
    noDataset:
      'Soy el modelo extractivo integrado: respondo solo a partir de los pasajes de los conjuntos de datos adjuntos a una conversación, y aquí no hay ninguno adjunto. ' +
      'Adjunte un conjunto de datos a este hilo (o a su mensaje), o elija un modelo generativo.',
  },
  zh: {
    quotes: '摘自你的数据集：',
    nothingFound: '在附加的数据集中没有找到能回答这个问题的内容。请换个说法、附加其他数据集，或选择生成式模型。',
    noDataset: '我是内置的摘录式模型：只根据对话所附数据集中的段落作答，而这里没有附加任何数据集。请为此对话（或你的消息）附加数据集，或选择生成式模型。',
  },
  ja: {
    quotes: 'データセットからの引用：',
    nothingFound: '添付のデータセットには、この質問に答える内容が見つかりませんでした。別の言葉で試すか、別のデータセットを添付するか、生成モデルを選んでください。',
    noDataset:
      '私は組み込みの抽出型モデルです。会話に添付されたデータセットの文章だけをもとに答えますが、ここには何も添付されていません。このスレッド（またはメッセージ）にデータセットを添付するか、生成モデルを選んでください。',
  },
  ko: {
    quotes: '데이터 세트에서 찾은 내용:',
    nothingFound: '첨부된 데이터 세트에서 이 질문에 답하는 내용을 찾지 못했습니다. 다른 단어로 시도하거나, 다른 데이터 세트를 첨부하거나, 생성형 모델을 선택하세요.',
    noDataset:
      '저는 내장 추출형 모델입니다. 대화에 첨부된 데이터 세트의 구절로만 답하는데, 여기에는 첨부된 데이터 세트가 없습니다. 이 스레드(또는 메시지)에 데이터 세트를 첨부하거나 생성형 모델을 선택하세요.',
  },
  th: {
    quotes: 'จากชุดข้อมูลของคุณ:',
    nothingFound: 'ไม่พบข้อความในชุดข้อมูลที่แนบมาซึ่งตอบคำถามนี้ได้ ลองใช้คำอื่น แนบชุดข้อมูลอื่น หรือเลือกโมเดลแบบสร้างข้อความ',
    noDataset:
      'ฉันคือโมเดลแบบดึงข้อความในตัว ฉันตอบจากข้อความในชุดข้อมูลที่แนบกับบทสนทนาเท่านั้น และที่นี่ไม่มีชุดข้อมูลแนบอยู่ แนบชุดข้อมูลกับเธรดนี้ (หรือกับข้อความของคุณ) หรือเลือกโมเดลแบบสร้างข้อความ',
  },
};
