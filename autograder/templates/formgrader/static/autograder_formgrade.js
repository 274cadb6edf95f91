// The course's formgrader grading page (autograder/templates/formgrader/formgrade_offline.html.j2)
// carries no inline script: the instructor's lab forbids them (autograder/term/formgrader_csp.py).
// This file does what nbgrader's inline scripts in that page's header did:
// 1. the submission's ids, from this script tag's data attributes, as the globals that
//    nbgrader's formgrade.js reads;
// 2. toggle_name, which the page's "show/hide the student's name" icons call;
// 3. links marked data-link, made by nbgrader's utils.js;
// 4. MathJax's configuration (nbconvert's, which it kept in an inline script), then typesetting.
(function () {
  var tag = document.currentScript;
  window.submission_id = tag.dataset.submissionId;
  window.notebook_id = tag.dataset.notebookId;
  window.assignment_id = tag.dataset.assignmentId;
  window.base_url = tag.dataset.baseUrl;
})();

function toggle_name(on) {
  $(".name-shown").tooltip('hide');
  $(".name-hidden").tooltip('hide');
  if (on) {
    $(".name-shown").show();
    $(".name-hidden").hide();
  } else {
    $(".name-hidden").show();
    $(".name-shown").hide();
  }
}

$(document).ready(function () {
  $("[data-link]").each(function () {
    $(this).map(linkTo("notebook", $(this).data("link"))).removeAttr("data-link");
  });
  if (window.MathJax && MathJax.Hub) {
    MathJax.Hub.Config({
      TeX: {equationNumbers: {autoNumber: "AMS", useLabelIds: true}},
      tex2jax: {inlineMath: [['$', '$'], ["\\(", "\\)"]], displayMath: [['$$', '$$'], ["\\[", "\\]"]],
                processEscapes: true, processEnvironments: true},
      displayAlign: 'center',
      messageStyle: 'none',
      CommonHTML: {linebreaks: {automatic: true}}
    });
    MathJax.Hub.Queue(["Typeset", MathJax.Hub]);
  }
});
