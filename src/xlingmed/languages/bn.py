"""Bengali (bn): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Bengali BRU treebank; FLORES-200
parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "bn", "Bengali", "বাংলা", "Beng", ("হ্যাঁ", "হ্যা"), ("না",),
    answer_label="উত্তর",
    answer_phrases=("সঠিক উত্তর হল", "সঠিক উত্তর হলো", "সঠিক উত্তর", "উত্তর:", "উত্তরঃ", "সঠিক বিকল্প"),
    option_words=("বিকল্প",),
    conclusion_cues=(
        "অতএব", "সুতরাং", "তাই", "উপসংহারে", "সংক্ষেপে", "সবচেয়ে সম্ভাব্য", "সবচেয়ে উপযুক্ত", "সর্বোত্তম উত্তর",
    ),
    negations_before=("না", "নয়", "এর পরিবর্তে", "ছাড়া"),
    negations_after=("নয়", "না", "ভুল", "সঠিক নয়", "অসম্ভাব্য", "অবৈধ", "মেলে না", "হতে পারে না", "বাতিল"),
    no_choice_phrases=("ছবি ছাড়া", "নির্ধারণ করতে পারছি না", "উত্তর দিতে পারছি না", "পর্যাপ্ত তথ্য নেই"),
    none_phrases=("কোনো বিকল্পই সঠিক নয়", "কোনো উত্তরই সঠিক নয়"),
    refusal_phrases=("আমি চিকিৎসা পরামর্শ দিতে পারি না", "দুঃখিত, আমি পারি না"),
    term_words=("ভিটামিন", "হেপাটাইটিস", "টাইপ", "প্রকার", "গ্রুপ", "শ্রেণী", "পর্যায়", "রোগী"),
    reply_letters=("ক", "খ", "গ", "ঘ"),
)
