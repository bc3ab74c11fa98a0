"""An answer metric: does the answer tell the patient to see a doctor (in English or Spanish)?"""

from xlingmed.metrics.registry import AnswerMetric

WORDS = ("doctor", "médico", "medico")


def mentions_doctor(answer: str, reference: str, lang: str) -> float:
    return float(any(word in answer.lower() for word in WORDS))


MENTIONS_DOCTOR = AnswerMetric(
    "mentions_doctor", mentions_doctor, kind="binary", description="the answer advises seeing a doctor"
)
