"""The sentence a Vietnamese question was written from, its answer taken out (answer.cloze)."""

from citewise.answer.cloze import fills

DISPOSAL = "Việc định đoạt tài sản phải do chủ thể nào thực hiện?"


def test_the_words_around_the_asking_words_stand_around_the_answer():
    assert fills(DISPOSAL, "Việc định đoạt tài sản phải do người có năng lực hành vi dân sự thực hiện.")
    # the same words, not around an answer
    assert not fills(DISPOSAL, "2. Việc định đoạt tài sản chung hợp nhất được thực hiện theo thỏa thuận.")
    # typed without marks, "chủ thể nào" is still a noun asked for, not "thế nào"
    assert fills("Viec dinh doat tai san phai do chu the nao thuc hien?", "… phải do người đại diện thực hiện.")


def test_asking_words_that_end_the_question_need_four_words_before_them():
    will = "Di chúc có hiệu lực khi nào?"
    assert fills(will, "1. Di chúc có hiệu lực từ thời điểm mở thừa kế.")
    assert not fills(will, "2. Di chúc không có hiệu lực toàn bộ hoặc một phần trong trường hợp sau đây:")
    assert not fills(will, "Di chúc có hiệu lực")  # nothing after the words: no answer in the sentence


def test_a_question_opening_with_its_asking_word_has_nothing_to_fill():
    assert not fills("Ai là người quản lý di sản?", "Người quản lý di sản là người được chỉ định trong di chúc.")
    assert not fills("Thời hạn là bao lâu?", "Thời hạn là 14 ngày.")  # two words lead in, four are read


def test_what_a_subject_is_needs_the_whole_subject():
    question = "Tên khai sinh thời nhỏ của Bác Hồ là gì"
    assert not fills(question, "… thực hiện mục tiêu chiến lược của Bác Hồ là “Đánh cho Mỹ cút”, tạo thế …")
    assert fills(question, "Tên khai sinh thời nhỏ của Bác Hồ là Nguyễn Sinh Cung.")
